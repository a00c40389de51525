import type { Project } from './types';

export const projects: Project[] = [
  { id: 1, url: '', poster: '', title: 'Hotel Booking Manager', tech: 'React, TypeScript', problem: '', solution: '', site: '', github: '', description: '' },
];
