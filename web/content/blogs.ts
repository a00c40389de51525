import type { BlogArticle } from './types';

/** The three articles on /blogs. They open on the publisher's site in a new tab. */
export const blogs: readonly BlogArticle[] = [
  {
    id: 1,
    title: 'Prerendering a React Site Without a Server',
    description:
      'How to give every route its own HTML, title and description while keeping hosting to a bucket and a CDN.',
    published: '2024-08-14',
    minutes: 6,
    url: 'https://medium.com/@alex-example/prerendering-a-react-site-without-a-server',
  },
  {
    id: 2,
    title: 'A Contact Form on AWS for Pennies a Month',
    description:
      'API Gateway, Lambda and SES behind a captcha: the smallest serverless backend that still treats every message with care.',
    published: '2024-06-02',
    minutes: 8,
    url: 'https://medium.com/@alex-example/a-contact-form-on-aws-for-pennies-a-month',
  },
  {
    id: 3,
    title: 'Accessibility Checks That Fit in a Sprint',
    description:
      'Five habits that caught most of our accessibility bugs before users did, from keyboard walkthroughs to automated axe runs.',
    published: '2024-03-19',
    minutes: 4,
    url: 'https://medium.com/@alex-example/accessibility-checks-that-fit-in-a-sprint',
  },
];
