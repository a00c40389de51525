import type { SiteHead, SiteProfile } from './types';

/**
 * Who the site belongs to: the facts that are the same in every language (name, addresses, images).
 * "Alex Example" and the example.com addresses are placeholders: replace them with your own details.
 * Each language's site.ts spreads this and adds its own role line and profile label, and its tagline.
 */
export const owner = {
  name: 'Alex Example',
  profileUrl: 'https://www.linkedin.com/in/alex-example',
  siteUrl: 'https://portfolio.example.com',
  headshot: '/images/headshot.svg',
  badges: ['React', 'TypeScript', 'Node.js', 'AWS', 'CDK', 'PostgreSQL'],
  clientBlogsUrl: 'https://medium.com/@alex-example',
} satisfies Omit<SiteProfile, 'role' | 'profileLabel'>;

export const site: SiteProfile = {
  ...owner,
  role: 'Full Stack Developer · React & AWS',
  profileLabel: 'LinkedIn profile',
};

/** The tagline, apart: only the pages' heads and structured data say it, so no page's scripts carry it. */
export const siteHead: SiteHead = {
  tagline:
    'Alex Example is a full stack developer who builds fast, accessible React applications and the cloud services behind them.',
};
