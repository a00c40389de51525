import type { PageCopy } from '../types';

/** This folder's language: the text of ../pages.ts. */
export const pages: PageCopy = {
  home: {
    headline: 'Creo aplicaciones web rápidas y accesibles, y los servicios en la nube que las sostienen.',
    intro: [
      'Soy desarrollador full stack y trabajo con React, TypeScript y AWS. Ayudo a pequeñas empresas y equipos a sustituir hojas de cálculo y sitios lentos por software agradable de usar y sencillo de gestionar.',
      'Echa un vistazo a lo que he creado recientemente o ponte en contacto conmigo para hablar de tu proyecto.',
    ],
    cta: 'Explora mis proyectos',
    description:
      'Portafolio de Alex Example, desarrollador full stack que crea aplicaciones React rápidas y accesibles en AWS.',
  },
  projects: {
    intro: 'Una selección de trabajos recientes, desde sistemas de reservas hasta sitios promocionales. Cada tarjeta explica la necesidad, la solución y las tecnologías empleadas.',
    description:
      'Proyectos de Alex Example: un gestor de reservas hoteleras, el sitio web de una empresa de remodelación, un portafolio de fotografía, un diario gastronómico y el sitio de un camión de comida.',
  },
  blogs: {
    intro: 'Artículos sobre cómo desarrollar para la web, alojar en AWS y lanzar interfaces accesibles.',
    description: 'Artículos de Alex Example sobre React, prerrenderizado, backends sin servidor en AWS y accesibilidad.',
  },
  contact: {
    intro: '¿Tienes un proyecto en mente o una pregunta sobre mi trabajo? Envíame un mensaje y te responderé en un plazo de dos días hábiles.',
    description: 'Envía un mensaje a Alex Example sobre un proyecto, un puesto de trabajo o una consulta.',
  },
  about: {
    description:
      'Sobre Alex Example: desarrollador full stack, tecnologías, herramientas, prácticas y formación.',
  },
  privacy: {
    description: 'Cómo trata este portafolio tu información: analítica, captcha, cookies, con quién se comparte, seguridad y tus derechos.',
  },
};
