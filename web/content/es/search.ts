import type { SearchCopy } from '../types';

/** The search dialog's and the /search page's strings in this folder's language. */
export const search: SearchCopy = {
  title: 'Buscar',
  description: 'Todas las páginas, proyectos y artículos de este sitio, por tipo.',
  intro: 'Todas las páginas del sitio, por tipo. Con JavaScript activado, el botón Buscar las encuentra por cualquier palabra que contengan.',
  label: 'Buscar en el sitio',
  placeholder: 'Una palabra, una tecnología, un título…',
  close: 'Cerrar',
  help: 'Las flechas recorren los resultados, Intro abre uno, Escape cierra.',
  loading: 'Cargando…',
  failed: 'No se pudo cargar la búsqueda. Revisa la conexión e inténtalo de nuevo.',
  results: { none: 'Sin resultados', one: '1 resultado', many: '{count} resultados' },
  kinds: { page: 'Página', project: 'Proyecto', post: 'Entrada', article: 'Artículo' },
};
