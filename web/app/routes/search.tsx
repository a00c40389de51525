import { Link, useLoaderData } from 'react-router';
import { loadCatalogue } from '../../content/check';
import { summaryMeta } from '../layout/seo';
import { headOfPage } from './page-content';
import { searchDocuments } from '../search/documents';
import type { SearchKind } from '../search/engine';
import { localeOfRequest } from '../base-path';

const KINDS: readonly SearchKind[] = ['page', 'project', 'post', 'article'];

/**
 * /search: every page the search dialog finds, listed by kind, from the same documents its index is
 * made of (web/app/search/documents.ts). It is where the search control leads without JavaScript.
 */
export async function loader({ request }: { request: Request }) {
  const locale = localeOfRequest(request);
  const [documents, catalogue] = await Promise.all([searchDocuments(locale), loadCatalogue(locale)]);
  const groups = KINDS.map((kind) => ({
    kind,
    pages: documents.filter((d) => d.kind === kind).map(({ id, title }) => ({ id, title })),
  })).filter((group) => group.pages.length > 0);
  return { copy: catalogue.search, groups, page: await headOfPage(request, '/search') };
}

export const meta = summaryMeta;

export default function Search() {
  const { copy, groups } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="search-title" className="prose">
      <h1 id="search-title">{copy.title}</h1>
      <p className="lead">{copy.intro}</p>
      {groups.map((group) => (
        <section key={group.kind} aria-labelledby={`search-${group.kind}`}>
          <h2 id={`search-${group.kind}`}>{copy.kinds[group.kind]}</h2>
          <ul>
            {group.pages.map((page) => (
              <li key={page.id}>
                <Link to={page.id}>
                  <bdi>{page.title}</bdi>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
