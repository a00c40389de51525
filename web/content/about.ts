import type { AboutContent } from './types';

/** The /about page: intro, three comma-separated groups and two education entries. */
export const about: AboutContent = {
  intro: [
    'I am a full stack developer who enjoys turning messy, real-world processes into software that feels simple. Most of my work is React on the front end and Node.js on AWS behind it, built with TypeScript from end to end.',
    'I care about the details people notice without knowing why: pages that load fast on a weak connection, forms that explain what went wrong, and interfaces that work with a keyboard and a screen reader. When a project goes live, I like to leave the owner with clear documentation and a deploy they can run themselves.',
    'If you are planning a website, an internal tool or a cloud migration, I would be glad to hear about it.',
  ],
  technologies: 'React, TypeScript, JavaScript, Node.js, HTML, CSS, GraphQL, PostgreSQL, DynamoDB',
  tools: 'AWS Lambda, Amazon S3, CloudFront, Amazon SES, AWS CDK, Vite, Git, GitHub Actions, Docker, Figma',
  practices:
    'Accessibility (WCAG 2.2), Test-driven development, Continuous delivery, Code review, Performance budgets, Agile',
  education: [
    {
      title: 'B.Sc. Computer Science',
      school: 'Example State University',
      years: '2014 – 2018',
      detail: 'Focus on distributed systems and human–computer interaction.',
    },
    {
      title: 'AWS Certified Developer – Associate',
      school: 'Amazon Web Services',
      years: '2022',
      detail: 'Serverless application design, security and deployment on AWS.',
    },
  ],
};
