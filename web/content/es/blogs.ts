import type { BlogArticle } from '../types';

/**
 * This folder's language: the text of ../blogs.ts, the cards only (the articles themselves are in English). Dates (ISO) and
 * reading minutes stay as in the English file; the page writes them in this language.
 */
export const blogs: readonly BlogArticle[] = [
  {
    id: 1,
    title: 'Prerrenderizar un sitio React sin servidor',
    description:
      'Cómo dar a cada ruta su propio HTML, título y descripción sin que el alojamiento pase de un bucket y una CDN.',
    published: '2024-08-14',
    minutes: 6,
    url: 'https://medium.com/@alex-example/prerendering-a-react-site-without-a-server',
  },
  {
    id: 2,
    title: 'Un formulario de contacto en AWS por casi nada al mes',
    description:
      'API Gateway, Lambda y SES detrás de un captcha: el backend sin servidor más pequeño que, aun así, trata cada mensaje con cuidado.',
    published: '2024-06-02',
    minutes: 8,
    url: 'https://medium.com/@alex-example/a-contact-form-on-aws-for-pennies-a-month',
  },
  {
    id: 3,
    title: 'Comprobaciones de accesibilidad que caben en un sprint',
    description:
      'Cinco hábitos que detectaron la mayoría de nuestros errores de accesibilidad antes que los usuarios, desde recorridos con el teclado hasta pruebas automáticas con axe.',
    published: '2024-03-19',
    minutes: 4,
    url: 'https://medium.com/@alex-example/accessibility-checks-that-fit-in-a-sprint',
  },
];
