import type { AboutContent } from '../types';

/** This folder's language: the text of ../about.ts. The technologies and tools are names and stay as in English. */
export const about: AboutContent = {
  intro: [
    'Soy desarrollador full stack y disfruto convirtiendo procesos reales y desordenados en software que resulta sencillo. La mayor parte de mi trabajo combina React en la interfaz con Node.js sobre AWS en el servidor, todo con TypeScript de principio a fin.',
    'Me importan los detalles que la gente nota sin saber por qué: páginas que cargan rápido con una conexión débil, formularios que explican qué falló e interfaces que funcionan con teclado y con lector de pantalla. Cuando un proyecto se pone en marcha, me gusta dejarle al propietario una documentación clara y un despliegue que pueda ejecutar por su cuenta.',
    'Si estás planeando un sitio web, una herramienta interna o una migración a la nube, me encantará que me lo cuentes.',
  ],
  technologies: 'React, TypeScript, JavaScript, Node.js, HTML, CSS, GraphQL, PostgreSQL, DynamoDB',
  tools: 'AWS Lambda, Amazon S3, CloudFront, Amazon SES, AWS CDK, Vite, Git, GitHub Actions, Docker, Figma',
  practices:
    'Accesibilidad (WCAG 2.2), Desarrollo guiado por pruebas, Entrega continua, Revisión de código, Presupuestos de rendimiento, Metodologías ágiles',
  education: [
    {
      title: 'Licenciatura en Ciencias de la Computación',
      school: 'Example State University',
      years: '2014 – 2018',
      detail: 'Especialización en sistemas distribuidos e interacción humano–computadora.',
    },
    {
      title: 'AWS Certified Developer – Associate',
      school: 'Amazon Web Services',
      years: '2022',
      detail: 'Diseño, seguridad y despliegue de aplicaciones sin servidor en AWS.',
    },
  ],
};
