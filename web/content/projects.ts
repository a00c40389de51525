import { findProjectIn } from './find-project';
import type { Project } from './types';

/**
 * The five projects on /projects and /projects/{id}. Rules the pages apply:
 * project 1 shows no Website link (it is a private app) and offers a Contact link instead;
 * project 4 shows no GitHub link (the code belongs to the client).
 * Videos live in web/public/videos; leave url/webm/poster empty for a project without one.
 */
export const projects: Project[] = [
  {
    id: 1,
    url: '/videos/hotel-booking.mp4',
    webm: '/videos/hotel-booking.webm',
    poster: '/videos/hotel-booking.webp',
    title: 'Hotel Booking Manager',
    tech: 'React, TypeScript, Node.js, Express, PostgreSQL, AWS',
    problem:
      'A family-run group of three boutique hotels managed reservations in shared spreadsheets. Double bookings happened every month and front-desk staff spent hours reconciling rooms, rates and deposits by hand.',
    solution:
      'A booking management app with a live availability calendar, rate rules per season and automatic deposit tracking, so every desk sees the same rooms at the same moment.',
    site: 'https://hotel-booking.example.com',
    github: 'https://github.com/alex-example/hotel-booking-manager',
    description:
      'The app replaces the spreadsheets with a single PostgreSQL database behind a typed Express API. Staff work in a React dashboard that shows occupancy by day and by room, flags overlapping stays before they are saved and sends confirmation emails to guests. Role-based access keeps housekeeping, front desk and management views separate. It runs on AWS with nightly backups, and because it handles guest data it is only available on the hotels’ network.',
  },
  {
    id: 2,
    url: '',
    webm: '',
    poster: '',
    title: 'Remodeling Company Website',
    tech: 'React, React Router, CSS Modules, AWS Amplify',
    problem:
      'A local remodeling company relied on word of mouth and an outdated one-page site that did not work on phones, so homeowners left before asking for a quote.',
    solution:
      'A fast, mobile-first website with a project gallery, service pages written for local search and a short quote request form that goes straight to the owner’s inbox.',
    site: 'https://remodeling.example.com',
    github: 'https://github.com/alex-example/remodeling-website',
    description:
      'Each service has its own page with before-and-after photos, typical timelines and answers to common questions, which helped the company appear in local searches. Images are served in modern formats at the right size for each screen, and the site scores in the high nineties on Lighthouse. The quote form validates input on the client and on the server and protects the owner from spam with a captcha.',
  },
  {
    id: 3,
    url: '/videos/photography.mp4',
    webm: '/videos/photography.webm',
    poster: '/videos/photography.webp',
    title: 'Photography Portfolio',
    tech: 'React, TypeScript, Vite, Amazon S3, CloudFront',
    problem:
      'A wedding and portrait photographer needed to show large, high-quality galleries without making visitors wait, and to share private proofs with clients.',
    solution:
      'A photography website with responsive galleries that load images progressively, plus password-protected proof galleries that clients can share with family.',
    site: 'https://photography.example.com',
    github: 'https://github.com/alex-example/photography-portfolio',
    description:
      'Originals are uploaded once to S3; the site serves resized, compressed versions through CloudFront so a gallery of eighty photos opens in under two seconds on a phone. Galleries are organised by collection, support keyboard navigation and swipe gestures, and describe every image for screen readers. The photographer adds new work from a simple upload page without touching code.',
  },
  {
    id: 4,
    url: '',
    webm: '',
    poster: '',
    title: 'Dining Tracker App',
    tech: 'React, TypeScript, Node.js, GraphQL, DynamoDB, AWS Lambda',
    problem:
      'A restaurant-loving client wanted one place to remember where they ate, what they ordered and what they would order again, instead of scattered notes and photos.',
    solution:
      'A dining tracker app to log visits, rate dishes, attach photos and find favourites again with search and filters by cuisine, neighbourhood and price.',
    site: 'https://dining-tracker.example.com',
    github: '',
    description:
      'Visits are stored in DynamoDB behind a GraphQL API running on AWS Lambda, which keeps hosting costs close to zero for a personal app. The React front end works offline and syncs when the connection returns, which matters in basement restaurants. The client owns the source code, so the repository is private, but the app itself is live.',
  },
  {
    id: 5,
    url: '/videos/food-truck.mp4',
    webm: '/videos/food-truck.webm',
    poster: '/videos/food-truck.webp',
    title: 'Food Truck Marketing Site',
    tech: 'React, TypeScript, Google Maps Embed, Netlify Forms',
    problem:
      'A food truck moved to a different spot every day and lost customers who could not find it. Posting the schedule on social media was easy to miss.',
    solution:
      'A bright marketing site with the weekly schedule, a live “where are we today” panel, the current menu and a catering request form.',
    site: 'https://food-truck.example.com',
    github: 'https://github.com/alex-example/food-truck-site',
    description:
      'The owners update the schedule and menu from a small content file, and the site rebuilds in seconds. The home page highlights today’s location with opening hours and directions, and the catering form brought in several private events in its first month. The whole site weighs less than 150 KB on first load.',
  },
];

/** The English project whose id equals the URL parameter, or undefined. */
export function findProject(param: string | undefined): Project | undefined {
  return findProjectIn(projects, param);
}
