import { owner } from '../site';
import type { SiteHead, SiteProfile } from '../types';

/** This folder's language: the text of ../site.ts, the role line, tagline and profile label; name, links and images come from ../site.ts. */
export const site: SiteProfile = {
  ...owner,
  role: 'Desarrollador full stack · React y AWS',
  profileLabel: 'Perfil de LinkedIn',
};

/** The tagline, apart: only the pages' heads and structured data say it (see ../site.ts). */
export const siteHead: SiteHead = {
  tagline:
    'Alex Example es un desarrollador full stack que crea aplicaciones React rápidas y accesibles, y los servicios en la nube que las sostienen.',
};
