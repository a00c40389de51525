// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildIndex, excerptParts, foldTerm, languageSearch, loadIndex, searchIn, tokenize, type SearchDocument } from './engine';

const DOCUMENTS: SearchDocument[] = [
  {
    id: '/es/projects/1',
    kind: 'project',
    title: 'Reservas de hotel',
    tags: 'React, TypeScript, PostgreSQL',
    text: 'Un panel de diseño para gestionar reservas y habitaciones.',
  },
  {
    id: '/blogs/hello-world',
    kind: 'post',
    title: 'Hello world',
    tags: 'aws cdk',
    text: 'Deploying a static site with CloudFront and a strict content security policy.',
  },
  { id: '/about', kind: 'page', title: 'About', tags: 'Kubernetes, Terraform', text: 'I build accessible applications.' },
  { id: '/ar/projects/2', kind: 'project', title: 'مُدوَّنة السفر', text: 'تطبيق لتخطيط الرحلات مع خرائط تفاعلية' },
];

// As the dialog has it: the built JSON, loaded once by the engine's own chunk.
const search = languageSearch(buildIndex(DOCUMENTS));
const ids = (query: string) => search(query).map((hit) => hit.id);

describe('folding and splitting', () => {
  it('drops case and accents, keeps letters of every script', () => {
    expect(foldTerm('Diseño')).toBe('diseno');
    expect(foldTerm('CAFÉ')).toBe('cafe');
    expect(foldTerm('مُدوَّنة')).toBe('مدونة');
    expect(tokenize('Node.js, AWS-CDK; el café')).toEqual(['Node', 'js', 'AWS', 'CDK', 'el', 'café']);
  });
});

describe('matching', () => {
  it('finds a word with or without its accents', () => {
    expect(ids('diseno')).toEqual(['/es/projects/1']);
    expect(ids('DISEÑO')).toEqual(['/es/projects/1']);
  });

  it('finds a word being typed by its beginning', () => {
    expect(ids('cloudf')).toEqual(['/blogs/hello-world']);
    expect(ids('Postgre')).toEqual(['/es/projects/1']);
  });

  it('forgives a typo in a word of four letters or more, not in shorter ones', () => {
    expect(ids('kubernets')).toEqual(['/about']);
    expect(ids('Typescipt')).toEqual(['/es/projects/1']);
    expect(ids('aqs')).toEqual([]);
  });

  it('needs every word of the query', () => {
    expect(ids('static cloudfront')).toEqual(['/blogs/hello-world']);
    expect(ids('static kubernetes')).toEqual([]);
  });

  it('finds right-to-left text, with or without its vowel signs', () => {
    expect(ids('مدونة')).toEqual(['/ar/projects/2']);
    expect(ids('خرائط')).toEqual(['/ar/projects/2']);
  });

  it('ranks a title match above a text match', () => {
    const both = loadIndex(
      buildIndex([
        { id: '/a', kind: 'page', title: 'Other', text: 'lambda functions' },
        { id: '/b', kind: 'post', title: 'Lambda', text: 'functions' },
      ]),
    );
    expect(searchIn(both, 'lambda').map((hit) => hit.id)).toEqual(['/b', '/a']);
  });

  it('answers nothing to a query without a word', () => {
    expect(ids('  ')).toEqual([]);
    expect(ids('¿?!')).toEqual([]);
  });

  it('keeps what a result shows: title, kind and the start of the tags and text', () => {
    const [hit] = search('hello');
    expect(hit).toMatchObject({ id: '/blogs/hello-world', kind: 'post', title: 'Hello world', terms: ['hello'] });
    expect(hit?.excerpt.startsWith('aws cdk · Deploying a static site')).toBe(true);
  });
});

describe('excerpts', () => {
  it('shows a technology that matched: the tags lead the excerpt', () => {
    const [hit] = search('postgre');
    expect(hit?.excerpt.startsWith('React, TypeScript, PostgreSQL · Un panel')).toBe(true);
    expect(
      excerptParts(hit!)
        .filter((part) => part.mark)
        .map((part) => part.text),
    ).toEqual(['PostgreSQL']);
  });

  it('marks the matched words, whatever their accents', () => {
    const [hit] = search('diseno');
    const parts = excerptParts(hit!);
    expect(parts.filter((part) => part.mark).map((part) => part.text)).toEqual(['diseño']);
    expect(parts.map((part) => part.text).join('')).toBe(
      'React, TypeScript, PostgreSQL · Un panel de diseño para gestionar reservas y habitaciones.',
    );
  });

  it('starts a little before a match far into the text, and cuts at a word boundary', () => {
    const text = `${'lorem ipsum '.repeat(20)}needle ${'dolor sit '.repeat(30)}`;
    const parts = excerptParts({ excerpt: text, terms: ['needle'] }, 100);
    const shown = parts.map((part) => part.text).join('');
    expect(shown.startsWith('… ')).toBe(true);
    expect(shown.endsWith(' …')).toBe(true);
    expect(shown).toContain('needle');
    expect(shown.length).toBeLessThan(110);
    expect(parts.find((part) => part.mark)?.text).toBe('needle');
  });
});
