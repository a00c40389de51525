import type { SiteProfile } from '../types';

/** Spanish text of ../site.ts: only the role line, tagline and profile label differ; keep the rest in step. */
export const site: SiteProfile = {
  name: 'Alex Example',
  role: 'Desarrollador full stack · React y AWS',
  tagline:
    'Alex Example es un desarrollador full stack que crea aplicaciones React rápidas y accesibles, y los servicios en la nube que las sostienen.',
  profileUrl: 'https://www.linkedin.com/in/alex-example',
  profileLabel: 'Perfil de LinkedIn',
  siteUrl: 'https://portfolio.example.com',
  headshot: '/images/headshot.svg',
  badges: ['React', 'TypeScript', 'Node.js', 'AWS', 'CDK', 'PostgreSQL'],
  clientBlogsUrl: 'https://medium.com/@alex-example',
};
