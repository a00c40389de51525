import { englishMatches, render, screen, within } from '../../test/render';
import userEvent from '@testing-library/user-event';
import { createRoutesStub, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { about as aboutContent } from '../../content/about';
import { blogs as blogContent } from '../../content/blogs';
import { projects as projectContent } from '../../content/projects';
import { site } from '../../content/site';
import { absoluteUrl } from '../layout/seo';
import About, { loader as aboutLoader } from './about';
import Blogs, { loader as blogsLoader } from './blogs';
import ErrorPage from './error';
import Contact, { loader as contactLoader, meta as contactMeta } from './contact';
import Home, { loader as homeLoader } from './home';
import IndexRedirect, { clientLoader, HydrateFallback as IndexHydrateFallback, meta as indexMeta } from './index-redirect';
import NotFound from './not-found';
import PrivacyPolicy, { clientLoader as privacyClientLoader, loader as privacyLoader } from './privacy-policy';
import Projects, { loader as projectsLoader, meta as projectsMeta } from './projects';
import { pages } from '../../content/pages';
import { privacyPolicy } from '../../content/privacy-policy';
import { privacyPolicyOfPage } from './page-content';
import { pageTexts } from './page-texts.server';
import { PageTexts } from '../components/PageText';

const trackClick = vi.hoisted(() => vi.fn());
const usePageEvent = vi.hoisted(() => vi.fn());
vi.mock('../features/tracking/track-click', () => ({ trackClick }));
vi.mock('../features/analytics/page-events', () => ({ usePageEvent }));
// The pages with the owner's articles and no post, whatever posts web/content holds: the posts' cards
// on /blogs are the posts build's to test (scripts/posts-build.test.ts, with fixture posts).
vi.mock('../posts/posts.server', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../posts/posts.server')>()),
  allPosts: async () => [],
}));

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderRoute(
  path: string,
  Component: React.ComponentType,
  extra: { path: string; Component: React.ComponentType }[] = [],
  loader?: (args: { request: Request }) => unknown,
  /** The long texts the build's server entry gives the prerender (page-texts.server.ts). */
  prerendered: ReadonlyMap<string, string> | null = null,
) {
  const Stub = createRoutesStub([{ path, Component, loader, HydrateFallback: () => null }, ...extra, { path: '*', Component: Where }]);
  return render(
    <PageTexts.Provider value={prerendered}>
      <Stub initialEntries={[path]} />
    </PageTexts.Provider>,
  );
}

beforeEach(() => {
  trackClick.mockClear();
  usePageEvent.mockClear();
});

describe('/ redirect', () => {
  // From a link inside the site: the browser's address is another page's while the loader runs.
  beforeEach(() => window.history.replaceState(null, '', '/about'));
  const redirectOf = (url: string) => clientLoader({ request: new Request(url) }) as Response;

  it('replaces / with /home', async () => {
    const Stub = createRoutesStub([
      { path: '/', Component: IndexRedirect, loader: clientLoader, HydrateFallback: () => null },
      { path: '/home', Component: Where },
    ]);
    render(<Stub initialEntries={['/']} />);
    expect(await screen.findByTestId('where')).toHaveTextContent('/home');
    const response = redirectOf('https://example.com/');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/home');
  });

  it("sends each language's root, with or without its trailing slash, to that language's home, keeping the query", async () => {
    const to = (url: string) => redirectOf(url).headers.get('Location');
    expect(to('https://example.com/es')).toBe('/es/home');
    expect(to('https://example.com/es/')).toBe('/es/home');
    expect(to('https://example.com/?utm_source=x')).toBe('/home?utm_source=x');
    const Stub = createRoutesStub([
      { path: '/es', Component: IndexRedirect, loader: clientLoader, HydrateFallback: () => null },
      { path: '/es/home', Component: Where },
    ]);
    render(<Stub initialEntries={['/es']} />);
    expect(await screen.findByTestId('where')).toHaveTextContent('/es/home');
  });

  it('redirects without scripts: a 0-second meta refresh and a canonical link to the home page, and a link home on the page', () => {
    const tags = indexMeta({ location: { pathname: '/es/' }, matches: englishMatches });
    expect(tags).toContainEqual({ httpEquiv: 'refresh', content: '0; url=/es/home' });
    expect(tags).toContainEqual({ tagName: 'link', rel: 'canonical', href: absoluteUrl('/es/home') });
    expect(indexMeta({ location: { pathname: '/' }, matches: englishMatches })).toContainEqual({
      httpEquiv: 'refresh',
      content: '0; url=/home',
    });
    const Stub = createRoutesStub([{ path: '/es', Component: IndexHydrateFallback }]);
    render(<Stub initialEntries={['/es']} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(site.name);
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/es/home');
  });
});

describe('/home', () => {
  it('greets, introduces and links to /projects, counting the click', async () => {
    renderRoute('/home', Home, [], homeLoader);
    expect(await screen.findByTestId('greeting')).toHaveTextContent(/^Good (Morning|Afternoon|Evening)$/);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(site.name);
    const cta = screen.getByRole('link', { name: /projects/i });
    expect(cta).toHaveAttribute('href', '/projects');
    await userEvent.click(cta);
    expect(trackClick).toHaveBeenCalledWith('HOME_EXPLORE_PROJECTS_CLICK');
    expect(usePageEvent).toHaveBeenCalledWith('homePage');
  });
});

describe('/projects', () => {
  it('shows a card per project with Need, Solution, Tech and Read more', async () => {
    renderRoute('/projects', Projects, [], projectsLoader, await pageTexts());
    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(projectContent.length);
    projectContent.forEach((project, i) => {
      const card = within(cards[i] as HTMLElement);
      expect(card.getByRole('heading', { name: project.title })).toBeInTheDocument();
      expect(card.getByText('Need')).toBeInTheDocument();
      expect(card.getByText('Solution')).toBeInTheDocument();
      // The long texts come from the prerender, not the loader data.
      // Each in its own field (an owner may well write the same words in both).
      expect(cards[i]?.querySelector(`[data-page-text="en/projects/${project.id}/problem"]`)).toHaveTextContent(project.problem);
      expect(cards[i]?.querySelector(`[data-page-text="en/projects/${project.id}/solution"]`)).toHaveTextContent(project.solution);
      expect(card.getByText('Tech')).toBeInTheDocument();
      expect(card.getByText(project.tech)).toBeInTheDocument();
      expect(card.getByRole('link', { name: /read more/i })).toHaveAttribute('href', `/projects/${project.id}`);
      // A video (behind its poster link) only for projects that have one.
      expect(Boolean(cards[i]?.querySelector('.video-frame'))).toBe(project.url !== '');
    });
    expect(usePageEvent).toHaveBeenCalledWith('projectsPage');
  });

  it("carries each card only (no detail page's description), and its meta the page's own description and first poster", async () => {
    const data = await projectsLoader({ request: new Request('http://localhost/projects') });
    // Its description once, in its head.
    expect(data.copy).toEqual({ intro: pages.projects.intro });
    expect(data.page).toEqual({ path: '/projects', title: 'Projects', description: pages.projects.description });
    for (const card of data.projects) {
      expect(card).not.toHaveProperty('description');
      // Its need and solution are in the page's HTML only: the first load's data does not repeat them.
      expect(card).not.toHaveProperty('problem');
      expect(card).not.toHaveProperty('solution');
      expect(card.eventTitle).toBe(card.title);
    }
    const tags = projectsMeta({ loaderData: data, matches: englishMatches });
    expect(tags).toContainEqual({ name: 'description', content: pages.projects.description });
    const firstPoster = projectContent.find((p) => p.url && p.poster)!.poster;
    expect(tags).toContainEqual(expect.objectContaining({ tagName: 'link', rel: 'preload', href: firstPoster }));
  });

  it('counts Read more as PROJECT_VIEW_{TITLE}', async () => {
    renderRoute('/projects', Projects, [], projectsLoader);
    const first = (await screen.findAllByRole('link', { name: /read more/i }))[0] as HTMLElement;
    await userEvent.click(first);
    expect(trackClick).toHaveBeenCalledWith('PROJECT_VIEW', projectContent[0]?.title);
    expect(screen.getByTestId('where')).toHaveTextContent(`/projects/${projectContent[0]?.id}`);
  });

  it('ends with "More to come!" and a scroll-to-top button', async () => {
    renderRoute('/projects', Projects, [], projectsLoader);
    const more = await screen.findByText('More to come!');
    expect(within(more.parentElement as HTMLElement).getByRole('button', { name: /top/i })).toBeInTheDocument();
  });

  it('shows each video as a link to its file behind the poster, only the first poster loaded at once', async () => {
    renderRoute('/projects', Projects, [], projectsLoader);
    await screen.findAllByRole('article');
    const withVideo = projectContent.filter((project) => project.url);
    expect(withVideo.length).toBeGreaterThanOrEqual(2);
    expect(document.querySelector('video')).toBeNull();
    withVideo.forEach((project, i) => {
      const link = screen.getByRole('link', { name: `Play: Demo video of ${project.title}` });
      expect(link).toHaveAttribute('href', project.url);
      expect(link.parentElement).toHaveClass('video-frame');
      const poster = link.querySelector('img');
      expect(poster).toHaveAttribute('src', project.poster);
      expect(poster).toHaveAttribute('loading', i === 0 ? 'eager' : 'lazy');
      expect(poster).toHaveAttribute('fetchpriority', i === 0 ? 'high' : 'auto');
    });
  });

  it('swaps the poster for the playing, muted player on a click, with focus on it', async () => {
    renderRoute('/projects', Projects, [], projectsLoader);
    const project = projectContent.find((p) => p.url)!;
    await userEvent.click(await screen.findByRole('link', { name: `Play: Demo video of ${project.title}` }));
    const video = screen.getByLabelText(`Demo video of ${project.title}`) as HTMLVideoElement;
    expect(video.tagName).toBe('VIDEO');
    expect(video.autoplay).toBe(true);
    expect(video.muted).toBe(true);
    expect(video.controls).toBe(true);
    expect(video).toHaveAttribute('poster', project.poster);
    expect([...video.querySelectorAll('source')].map((s) => s.getAttribute('src'))).toContain(project.url);
    expect(video).toHaveFocus();
    expect(screen.queryByRole('link', { name: `Play: Demo video of ${project.title}` })).not.toBeInTheDocument();
  });
});

describe('/contact', () => {
  it("shows the heading, the owner's intro and the form; its meta has the page's description", async () => {
    renderRoute('/contact', Contact, [], contactLoader);
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact Me' })).toBeInTheDocument();
    expect(screen.getByText(pages.contact.intro)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(usePageEvent).toHaveBeenCalledWith('contactPage');
    const data = await contactLoader({ request: new Request('http://localhost/contact') });
    expect(contactMeta({ loaderData: data, matches: englishMatches })).toContainEqual({
      name: 'description',
      content: pages.contact.description,
    });
  });
});

describe('/blogs', () => {
  it('has the heading, a card per article opening in a new tab and a Client blogs link', async () => {
    renderRoute('/blogs', Blogs, [], blogsLoader);
    expect(await screen.findByRole('heading', { level: 1, name: 'Insights & Inspiration' })).toBeInTheDocument();
    const articles = screen.getAllByRole('heading', { level: 2 });
    expect(articles.map((h) => h.textContent)).toEqual(blogContent.map((b) => b.title));
    for (const blog of blogContent) {
      const link = screen.getByRole('link', { name: new RegExp(blog.title) });
      expect(link).toHaveAttribute('href', blog.url);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      expect(link).toHaveTextContent(`“${blog.description}”`);
      // Title and quoted description each isolated: in a right-to-left page an English title keeps its
      // own order (the quotes inside, so “ still kerns with the first letter as before).
      expect([...link.querySelectorAll('bdi')].map((bdi) => bdi.textContent)).toEqual([blog.title, `“${blog.description}”`]);
      expect(link).toHaveTextContent(
        new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(blog.published)),
      );
      expect(link).toHaveTextContent(`${blog.minutes} min read`);
    }
    const client = screen.getByRole('link', { name: 'Client blogs' });
    expect(client).toHaveAttribute('href', site.clientBlogsUrl);
    expect(client).toHaveAttribute('rel', 'noopener noreferrer');
    client.addEventListener('click', (e) => e.preventDefault());
    await userEvent.click(client);
    expect(trackClick).toHaveBeenCalledWith('BLOGS_CLIENT_BLOGS');
    const card = screen.getByRole('link', { name: new RegExp(blogContent[1]?.title ?? '') });
    card.addEventListener('click', (e) => e.preventDefault());
    await userEvent.click(card);
    expect(trackClick).toHaveBeenCalledWith('BLOG_READ', blogContent[1]?.title);
    expect(usePageEvent).toHaveBeenCalledWith('blogsPage');
  });
});

describe('/about', () => {
  it("shows the intro, a Let's Chat! link, the three groups, education and the profile link", async () => {
    renderRoute('/about', About, [], aboutLoader);
    expect(await screen.findByRole('link', { name: "Let's Chat!" })).toHaveAttribute('href', '/contact');
    for (const name of ['Technologies', 'Tools', 'Practices', 'Education']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    const technologies = screen.getByRole('heading', { name: 'Technologies' }).parentElement as HTMLElement;
    expect(within(technologies).getAllByRole('listitem')).toHaveLength(aboutContent.technologies.split(',').length);
    for (const entry of aboutContent.education) expect(screen.getByText(entry.title)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /linkedin/i })).toHaveAttribute('href', site.profileUrl);
    expect(usePageEvent).toHaveBeenCalledWith('aboutPage');
  });
});

describe('/error', () => {
  it('shows the spec texts word for word and links back to /projects', async () => {
    renderRoute('/error', ErrorPage);
    expect(await screen.findByRole('heading', { level: 1, name: '404 - Not Found' })).toBeInTheDocument();
    expect(screen.getByText('The page you are looking for doesn"t exist or an error occurred.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Back to Projects' })).toHaveAttribute('href', '/projects');
  });
});

describe('404 page', () => {
  it('says "Oops! Page not found." with a Go home link to /', async () => {
    const Stub = createRoutesStub([{ path: '*', Component: NotFound }]);
    render(<Stub initialEntries={['/no/such/page']} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Oops! Page not found.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    expect(usePageEvent).toHaveBeenCalledWith('pageNotFoundPage');
  });
});

describe('/privacy-policy', () => {
  it('has 11 sections, each with an h2, and the last-updated date', async () => {
    const { container } = renderRoute('/privacy-policy', PrivacyPolicy, [], privacyLoader, await pageTexts());
    await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' });
    expect(screen.getByText(/last updated September 27, 2024/)).toBeInTheDocument();
    const sections = container.querySelectorAll('section');
    expect(sections).toHaveLength(11);
    sections.forEach((section) => expect(section.querySelector(':scope > h2')).not.toBeNull());
    const text = container.textContent ?? '';
    for (const topic of [/analytics/i, /reCAPTCHA/, /cookie/i, /shar/i, /secur/i, /rights/i, /changes/i, /contact/i]) {
      expect(text).toMatch(topic);
    }
  });

  it("says what the message archive keeps, for how long (this build's messageRetentionDays), and how to have it erased", async () => {
    const { container } = renderRoute('/privacy-policy', PrivacyPolicy, [], privacyLoader, await pageTexts());
    await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' });
    const section = (n: number) => container.querySelectorAll('section')[n - 1]?.textContent ?? '';
    // The build's default: cdk.json's messageRetentionDays, 365.
    expect(section(2)).toContain('keeps your full name, your email address and your message in its message archive');
    expect(section(2)).toContain('for 365 days');
    expect(section(2)).toMatch(/erased sooner, from the archive and from the mailbox, ask through the contact page/);
    expect(section(7)).toContain('keeps the message archive');
    // TLS is required on the way to the owner's mail server, never opportunistic.
    expect(section(8)).toContain('only over an encrypted (TLS) connection');
    expect(section(8)).not.toContain('travel encrypted to the owner');
    expect(section(9)).toContain('erased before the end of the period in section 2');
  });

  it('states the retention the deploy configures, in each language', async () => {
    const english = await privacyPolicyOfPage(new Request('http://localhost/privacy-policy'), {
      messageRetentionDays: 30,
      logRetentionDays: 30,
    });
    expect(english.privacyPolicy.sections[1]?.paragraphs.join(' ')).toContain('for 30 days');
    const one = await privacyPolicyOfPage(new Request('http://localhost/privacy-policy'), {
      messageRetentionDays: 1,
      logRetentionDays: 30,
    });
    expect(one.privacyPolicy.sections[1]?.paragraphs.join(' ')).toContain('for 1 day.');
    const spanish = await privacyPolicyOfPage(new Request('http://localhost/es/privacy-policy'), {
      messageRetentionDays: 30,
      logRetentionDays: 30,
    });
    expect(spanish.privacyPolicy.sections).toHaveLength(11);
    expect(spanish.privacyPolicy.sections[1]?.paragraphs.join(' ')).toContain('durante 30 días');
    expect(spanish.privacyPolicy.sections[7]?.paragraphs.join(' ')).toContain('mediante una conexión cifrada (TLS)');
    // Page views: kept as long as the deploy keeps its logs.
    const kept90 = await privacyPolicyOfPage(new Request('http://localhost/privacy-policy'), {
      messageRetentionDays: 30,
      logRetentionDays: 90,
    });
    expect(kept90.privacyPolicy.sections[2]?.paragraphs.join(' ')).toContain('logs for 90 days and then deleted');
    expect(kept90.privacyPolicy.sections[2]?.paragraphs.join(' ')).toContain('Global Privacy Control');
    expect(spanish.privacyPolicy.sections[2]?.paragraphs.join(' ')).toContain('durante 30 días y después se elimina');
    // Every paragraph is text by then: the page's data carries no function.
    for (const { paragraphs } of [...english.privacyPolicy.sections, ...spanish.privacyPolicy.sections]) {
      for (const paragraph of paragraphs) expect(typeof paragraph).toBe('string');
    }
  });
});

describe('dates and numbers written at build time', () => {
  it("the loaders write them in the page's language (the browser never formats them)", async () => {
    const en = await blogsLoader({ request: new Request('http://site.test/blogs') });
    const es = await blogsLoader({ request: new Request('http://site.test/es/blogs') });
    for (const [i, blog] of en.blogs.entries()) {
      expect(blog.publishedText).toBe(
        new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(blog.published)),
      );
      expect(es.blogs[i]?.publishedText).toMatch(/^\d{1,2} de [a-z]+ de \d{4}$/);
    }
    const updated = new Date(`${privacyPolicy.lastUpdated}T00:00:00Z`);
    expect((await privacyLoader({ request: new Request('http://site.test/privacy-policy') })).lastUpdatedText).toBe(
      new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(updated),
    );
    expect((await privacyLoader({ request: new Request('http://site.test/es/privacy-policy') })).lastUpdatedText).toBe(
      new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeZone: 'UTC' }).format(updated),
    );
  });

  it('/privacy-policy carries the policy in its HTML only, and a client navigation reads it from there', async () => {
    const data = await privacyLoader({ request: new Request('http://site.test/es/privacy-policy') });
    // The dates as text and the page's head, and the policy itself nowhere in the loader's data.
    expect(Object.keys(data).sort()).toEqual([
      'copy',
      'lastUpdatedText',
      'page',
      ...(privacyPolicy.revised === undefined ? [] : ['revisedText']),
    ]);
    expect(Object.keys(data.page).sort()).toEqual(['description', 'path', 'title']);
    const policy = (await pageTexts()).get('es/privacy-policy') ?? '';
    expect(policy).toContain('<section><h2>');
    // What a client navigation fetches: the prerendered page, whose marked element holds the policy.
    const fetched = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(`<main><div data-page-text="es/privacy-policy">${policy}</div></main>`));
    try {
      const loaded = await privacyClientLoader({
        request: new Request('http://site.test/es/privacy-policy'),
        serverLoader: async () => data,
      });
      expect(fetched).toHaveBeenCalledWith('/es/privacy-policy', expect.objectContaining({ headers: { Accept: 'text/html' } }));
      expect(loaded.texts['es/privacy-policy']).toBe(policy);
    } finally {
      fetched.mockRestore();
    }
  });

  it('/privacy-policy shows its latest revision beside the original date, and nothing when there was none', async () => {
    const request = () => new Request('http://site.test/privacy-policy');
    const revised = await privacyLoader({ request: request() });
    renderRoute('/privacy-policy', PrivacyPolicy, [], () => ({ ...revised, revisedText: 'December 6, 2026' }));
    expect(await screen.findByText(`last updated ${revised.lastUpdatedText} · revised December 6, 2026`)).toBeInTheDocument();
    document.body.replaceChildren();
    const { revisedText: _none, ...unrevised } = revised;
    renderRoute('/privacy-policy', PrivacyPolicy, [], () => unrevised);
    expect(await screen.findByText(`last updated ${revised.lastUpdatedText}`)).toBeInTheDocument();
    expect(screen.queryByText(/revised/)).toBeNull();
    expect((await privacyPolicyOfPage(request())).revisedText).toEqual(
      privacyPolicy.revised === undefined ? undefined : expect.any(String),
    );
  });

  it('/blogs and /privacy-policy render without constructing an Intl formatter', async () => {
    const blogs = await blogsLoader({ request: new Request('http://site.test/blogs') });
    const privacy = await privacyLoader({ request: new Request('http://site.test/privacy-policy') });
    const dateFormat = vi.spyOn(Intl, 'DateTimeFormat');
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    try {
      renderRoute('/blogs', Blogs, [], () => blogs);
      expect(await screen.findByText(blogs.blogs[0]?.publishedText ?? '')).toBeInTheDocument();
      renderRoute('/privacy-policy', PrivacyPolicy, [], () => privacy);
      expect(await screen.findByText(new RegExp(`last updated ${privacy.lastUpdatedText}`))).toBeInTheDocument();
      expect(dateFormat).not.toHaveBeenCalled();
      expect(numberFormat).not.toHaveBeenCalled();
    } finally {
      dateFormat.mockRestore();
      numberFormat.mockRestore();
    }
  });
});
