import { englishMatches, render, screen } from '../../test/render';
import userEvent from '@testing-library/user-event';
import { createRoutesStub, UNSAFE_ErrorResponseImpl, useLocation, type LoaderFunctionArgs } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { projectPageEvent } from '../../../contract/page-events';
import { projects } from '../../content/projects';
import { site } from '../../content/site';
import ErrorPage from './error';
import ProjectDetailRoute, { clientLoader, loader, meta } from './project-detail';

const trackClick = vi.hoisted(() => vi.fn());
const usePageEvent = vi.hoisted(() => vi.fn());
vi.mock('../features/tracking/track-click', () => ({ trackClick }));
vi.mock('../features/analytics/page-events', () => ({ usePageEvent }));

function Contact() {
  return <h1>Contact page at {useLocation().pathname}</h1>;
}

/**
 * What the browser does on a client navigation: the route's clientLoader, whose serverLoader fetches
 * the page's .data file. Known ids have one (their build-time loader's data); any other id gets the
 * CDN's 404, which React Router turns into a 404 error response.
 */
async function navigationLoader(args: LoaderFunctionArgs) {
  const serverLoader = async () => {
    const prerendered = projects.some((p) => `/projects/${p.id}` === new URL(args.request.url).pathname);
    if (!prerendered) throw new UNSAFE_ErrorResponseImpl(404, 'Not Found', '');
    return loader({ request: args.request, params: args.params as { projectId: string } } as Parameters<typeof loader>[0]);
  };
  return clientLoader({ ...args, serverLoader } as unknown as Parameters<typeof clientLoader>[0]);
}

function renderAt(path: string) {
  const Stub = createRoutesStub([
    { path: '/projects/:projectId', Component: ProjectDetailRoute, loader: navigationLoader, HydrateFallback: () => null },
    { path: '/error', Component: ErrorPage },
    { path: '/contact', Component: Contact },
  ]);
  return render(<Stub initialEntries={[path]} />);
}

const project = (id: number) => {
  const found = projects.find((p) => p.id === id);
  if (!found) throw new Error(`no project ${id}`);
  return found;
};

describe('/projects/:projectId', () => {
  beforeEach(() => {
    trackClick.mockClear();
    usePageEvent.mockClear();
  });

  it('shows the project whose id matches: title, need, solution, technologies, description', async () => {
    // A project with a demo video when the owner has one (its link is checked too).
    const p = projects.find((candidate) => candidate.url) ?? projects[0]!;
    renderAt(`/projects/${p.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: p.title })).toBeInTheDocument();
    for (const heading of ['Need', 'Solution', 'Technologies', 'Description']) {
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    }
    expect(screen.getByText(p.problem)).toBeInTheDocument();
    expect(screen.getByText(p.solution)).toBeInTheDocument();
    expect(screen.getByText(p.description)).toBeInTheDocument();
    if (p.url) {
      const video = screen.getByRole('link', { name: `Play: Demo video of ${p.title}` });
      expect(video).toHaveAttribute('href', p.url);
      expect(video.querySelector('img')).toHaveAttribute('fetchpriority', 'high');
    }
    // GA4 drops a name with spaces: the page event is the title made valid, the title its project_title.
    expect(usePageEvent).toHaveBeenCalledWith(projectPageEvent(p.title), p.title);
  });

  it('project 1: no Website link, a GitHub link, and "Contact" to /contact followed by "me for more information!"', async () => {
    const p = project(1);
    renderAt('/projects/1');
    await screen.findByRole('heading', { level: 1, name: p.title });
    expect(screen.queryByRole('link', { name: /website/i })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /github/i })).toHaveAttribute('href', p.github);
    const contact = screen.getByRole('link', { name: 'Contact' });
    expect(contact).toHaveAttribute('href', '/contact');
    expect(contact.parentElement).toHaveTextContent(/^Contact me for more information!$/);
    await userEvent.click(contact);
    expect(trackClick).toHaveBeenCalledWith('PROJECTS_CONTACT', p.title);
    expect(await screen.findByText('Contact page at /contact')).toBeInTheDocument();
  });

  it('project 4: a Website link and no GitHub link, and no contact line', async () => {
    const p = project(4);
    renderAt('/projects/4');
    await screen.findByRole('heading', { level: 1, name: p.title });
    const website = screen.getByRole('link', { name: /website/i });
    expect(website).toHaveAttribute('href', p.site);
    expect(website).toHaveAttribute('target', '_blank');
    expect(website).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.queryByRole('link', { name: /github/i })).not.toBeInTheDocument();
    expect(screen.queryByText(/me for more information!/)).not.toBeInTheDocument();
    expect(document.querySelector('.video-frame')).toBeNull();
  });

  it('other projects show both links and count their clicks', async () => {
    const p = project(2);
    renderAt('/projects/2');
    await screen.findByRole('heading', { level: 1, name: p.title });
    const website = screen.getByRole('link', { name: /website/i });
    const github = screen.getByRole('link', { name: /github/i });
    website.addEventListener('click', (e) => e.preventDefault());
    github.addEventListener('click', (e) => e.preventDefault());
    await userEvent.click(website);
    await userEvent.click(github);
    expect(trackClick).toHaveBeenCalledWith('PROJECTS_WEBSITE', p.title);
    expect(trackClick).toHaveBeenCalledWith('PROJECTS_GITHUB', p.title);
  });

  it.each(['99', '0', 'abc', '1.0', '01', '-1'])('an unknown id (%s) goes to /error', async (id) => {
    renderAt(`/projects/${id}`);
    expect(await screen.findByRole('heading', { level: 1, name: '404 - Not Found' })).toBeInTheDocument();
  });

  it('a network failure stays an error (only a 404 means "no such project")', async () => {
    const request = new Request('http://localhost/projects/3');
    const offline = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(clientLoader({ request, serverLoader: offline } as unknown as Parameters<typeof clientLoader>[0])).rejects.toThrow(
      'Failed to fetch',
    );
  });

  it("redirects an unknown id to the error page of the page's language", async () => {
    const notFound = () => Promise.reject(new UNSAFE_ErrorResponseImpl(404, 'Not Found', ''));
    const thrown = await clientLoader({
      request: new Request('http://localhost/es/projects/99'),
      serverLoader: notFound,
    } as unknown as Parameters<typeof clientLoader>[0]).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get('Location')).toBe('/es/error');
  });

  it('carries that one project only, with its analytics title; the build fails on an id it does not know', async () => {
    const data = await loader({ request: new Request('http://localhost/es/projects/2'), params: { projectId: '2' } } as Parameters<
      typeof loader
    >[0]);
    expect(data.project.id).toBe(2);
    expect(data.project.title).not.toBe(project(2).title);
    expect(data.project.eventTitle).toBe(project(2).title);
    expect(data.pageEvent).toBe(projectPageEvent(project(2).title));
    await expect(
      loader({ request: new Request('http://localhost/projects/42'), params: { projectId: '42' } } as Parameters<typeof loader>[0]),
    ).rejects.toMatchObject({ init: { status: 404 } });
  });

  it('gives each project its own title, description and canonical URL', async () => {
    const loaderData = await loader({ request: new Request('http://localhost/projects/5'), params: { projectId: '5' } } as Parameters<
      typeof loader
    >[0]);
    const tags = meta({ params: { projectId: '5' }, loaderData, matches: englishMatches } as unknown as Parameters<typeof meta>[0]);
    expect(tags).toContainEqual({ title: `${project(5).title} | ${site.name}` });
    expect(tags).toContainEqual(
      expect.objectContaining({ tagName: 'link', rel: 'canonical', href: expect.stringMatching(/\/projects\/5$/) }),
    );
    const unknown = meta({ params: { projectId: '42' }, loaderData: undefined, matches: englishMatches } as unknown as Parameters<
      typeof meta
    >[0]);
    expect(unknown).toContainEqual({ name: 'robots', content: 'noindex' });
  });
});
