/**
 * Owner-written copy of the pages. Headings and labels that are part of the product (such as
 * "Insights & Inspiration" or "Contact Me") live in the pages themselves.
 */
import type { PageCopy } from './types';

export const pages: PageCopy = {
  home: {
    headline: 'I build fast, accessible web apps and the cloud services behind them.',
    intro: [
      'I am a full stack developer working with React, TypeScript and AWS. I help small businesses and teams replace spreadsheets and slow sites with software that is pleasant to use and simple to run.',
      'Have a look at what I have built recently, or get in touch to talk about your project.',
    ],
    cta: 'Explore my projects',
    description:
      'Portfolio of Alex Example, a full stack developer building fast, accessible React applications on AWS.',
  },
  projects: {
    intro: 'A selection of recent work, from booking systems to marketing sites. Each card explains the need, the solution and the stack.',
    description:
      'Projects by Alex Example: a hotel booking manager, a remodeling company website, a photography portfolio, a dining tracker and a food truck site.',
  },
  blogs: {
    intro: 'Articles about building for the web, hosting on AWS and shipping accessible interfaces.',
    description: 'Articles by Alex Example on React, prerendering, serverless AWS backends and accessibility.',
  },
  contact: {
    intro: 'Have a project in mind or a question about my work? Send me a message and I will reply within two working days.',
    description: 'Send Alex Example a message about a project, a role or a question.',
  },
  about: {
    description:
      'About Alex Example: full stack developer, technologies, tools, practices and education.',
  },
  privacy: {
    description: 'How this portfolio handles your information: analytics, captcha, cookies, sharing, security and your rights.',
  },
};
