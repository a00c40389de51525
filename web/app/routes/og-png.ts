import { LOCALE_CODES } from '../../content/locales';
import { previewImagePath } from '../layout/preview-path';
import { allPosts } from '../posts/posts.server';
import { pagesOfEveryLocale, postPaths } from '../prerender-paths';
import { previewOfPage } from '../previews/page-preview.server';
import { renderPreview } from '../previews/render.server';

/*
 * /og/{page}.png: a page's link-preview card (og:image), prerendered to a file like sitemap.xml, drawn
 * from the page's own data (previews/page-preview.server.ts). The prerender asks for each image twice
 * (the file and its data payload, which the post-build removes): each is drawn once.
 */

const drawn = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/** The page whose preview image is `image` (/og/es-home.png → /es/home), or undefined. */
async function pageOfImage(image: string): Promise<string | undefined> {
  const pages = [...pagesOfEveryLocale(LOCALE_CODES), ...postPaths(await allPosts())];
  return pages.find((page) => previewImagePath(page) === image);
}

export async function loader({ params }: { params: { image?: string } }) {
  const image = `/og/${params.image ?? ''}`;
  if (!drawn.has(image)) {
    const page = await pageOfImage(image);
    if (!page)
      return new Response('No page has this preview image.', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    drawn.set(
      image,
      previewOfPage(page)
        .then(renderPreview)
        .then((png) => new Uint8Array(png)),
    );
  }
  return new Response(await drawn.get(image)!, { headers: { 'Content-Type': 'image/png' } });
}
