import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/index-redirect.tsx'),
  route('home', 'routes/home.tsx'),
  route('projects', 'routes/projects.tsx'),
  route('projects/:projectId', 'routes/project-detail.tsx'),
  route('blogs', 'routes/blogs.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('about', 'routes/about.tsx'),
  route('error', 'routes/error.tsx'),
  route('privacy-policy', 'routes/privacy-policy.tsx'),
  // Resource routes, prerendered to plain files at build time.
  route('robots.txt', 'routes/robots-txt.ts'),
  route('sitemap.xml', 'routes/sitemap-xml.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
