import type { SiteProfile } from './types';

/**
 * Who the site belongs to. "Alex Example" and the example.com addresses are placeholders:
 * replace them with your own details.
 */
export const site: SiteProfile = {
  name: 'Alex Example',
  role: 'Full Stack Developer · React & AWS',
  tagline:
    'Alex Example is a full stack developer who builds fast, accessible React applications and the cloud services behind them.',
  profileUrl: 'https://www.linkedin.com/in/alex-example',
  profileLabel: 'LinkedIn profile',
  siteUrl: 'https://portfolio.example.com',
  headshot: '/images/headshot.svg',
  badges: ['React', 'TypeScript', 'Node.js', 'AWS', 'CDK', 'PostgreSQL'],
  clientBlogsUrl: 'https://medium.com/@alex-example',
};
