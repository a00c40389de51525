import { owner } from '../site';
import type { SiteProfile } from '../types';

/** This folder's language: the text of ../site.ts, the role line, tagline and profile label; name, links and images come from ../site.ts. */
export const site: SiteProfile = {
  ...owner,
  role: 'Desarrollador full stack · React y AWS',
  tagline:
    'Alex Example es un desarrollador full stack que crea aplicaciones React rápidas y accesibles, y los servicios en la nube que las sostienen.',
  profileLabel: 'Perfil de LinkedIn',
};
