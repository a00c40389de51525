import type { Project } from '../types';

/**
 * This folder's language: the text of ../projects.ts, the same five projects in the same order; ids, videos and links are
 * copied from the English file, only the text is translated.
 */
export const projects: Project[] = [
  {
    id: 1,
    url: '/videos/hotel-booking.mp4',
    webm: '/videos/hotel-booking.webm',
    poster: '/videos/hotel-booking.webp',
    title: 'Gestor de reservas hoteleras',
    tech: 'React, TypeScript, Node.js, Express, PostgreSQL, AWS',
    problem:
      'Un grupo familiar de tres hoteles boutique gestionaba las reservas en hojas de cálculo compartidas. Cada mes había reservas duplicadas, y el personal de recepción pasaba horas cuadrando a mano habitaciones, tarifas y depósitos.',
    solution:
      'Una aplicación de gestión de reservas con un calendario de disponibilidad en tiempo real, reglas de tarifas por temporada y seguimiento automático de depósitos, para que cada recepción vea las mismas habitaciones en el mismo momento.',
    site: 'https://hotel-booking.example.com',
    github: 'https://github.com/alex-example/hotel-booking-manager',
    description:
      'La aplicación sustituye las hojas de cálculo por una única base de datos PostgreSQL detrás de una API de Express tipada. El personal trabaja en un panel de React que muestra la ocupación por día y por habitación, señala las estancias que se solapan antes de guardarlas y envía correos de confirmación a los huéspedes. El acceso basado en roles mantiene separadas las vistas de limpieza, recepción y dirección. Funciona en AWS con copias de seguridad cada noche y, como maneja datos de huéspedes, solo está disponible en la red de los hoteles.',
  },
  {
    id: 2,
    url: '',
    webm: '',
    poster: '',
    title: 'Sitio web para una empresa de remodelación',
    tech: 'React, React Router, CSS Modules, AWS Amplify',
    problem:
      'Una empresa local de remodelación dependía del boca a boca y de un sitio anticuado de una sola página que no funcionaba en teléfonos móviles, así que los propietarios de viviendas se iban antes de pedir un presupuesto.',
    solution:
      'Un sitio web rápido, pensado primero para móviles, con una galería de proyectos, páginas de servicios redactadas para las búsquedas locales y un breve formulario de solicitud de presupuesto que llega directamente a la bandeja de entrada del dueño.',
    site: 'https://remodeling.example.com',
    github: 'https://github.com/alex-example/remodeling-website',
    description:
      'Cada servicio tiene su propia página con fotos del antes y el después, plazos habituales y respuestas a preguntas frecuentes, lo que ayudó a la empresa a aparecer en las búsquedas locales. Las imágenes se sirven en formatos modernos y al tamaño adecuado para cada pantalla, y el sitio obtiene puntuaciones de más de 95 en Lighthouse. El formulario de presupuesto valida los datos tanto en el cliente como en el servidor y protege al dueño del spam con un captcha.',
  },
  {
    id: 3,
    url: '/videos/photography.mp4',
    webm: '/videos/photography.webm',
    poster: '/videos/photography.webp',
    title: 'Portafolio de fotografía',
    tech: 'React, TypeScript, Vite, Amazon S3, CloudFront',
    problem:
      'Un fotógrafo de bodas y retratos necesitaba mostrar galerías grandes y de alta calidad sin hacer esperar a los visitantes, y compartir pruebas privadas con sus clientes.',
    solution:
      'Un sitio web de fotografía con galerías adaptables que cargan las imágenes de forma progresiva, además de galerías de pruebas protegidas con contraseña que los clientes pueden compartir con su familia.',
    site: 'https://photography.example.com',
    github: 'https://github.com/alex-example/photography-portfolio',
    description:
      'Los originales se suben una sola vez a S3; el sitio sirve versiones redimensionadas y comprimidas a través de CloudFront, de modo que una galería de ochenta fotos se abre en menos de dos segundos en un teléfono. Las galerías se organizan por colecciones, admiten la navegación con teclado y los gestos de deslizamiento, y describen cada imagen para los lectores de pantalla. El fotógrafo añade nuevos trabajos desde una sencilla página de carga, sin tocar código.',
  },
  {
    id: 4,
    url: '',
    webm: '',
    poster: '',
    title: 'Aplicación de diario gastronómico',
    tech: 'React, TypeScript, Node.js, GraphQL, DynamoDB, AWS Lambda',
    problem:
      'Un cliente amante de los restaurantes quería un único lugar donde recordar dónde había comido, qué había pedido y qué volvería a pedir, en lugar de notas y fotos dispersas.',
    solution:
      'Una aplicación de diario gastronómico para registrar visitas, valorar platos, adjuntar fotos y volver a encontrar los favoritos con búsqueda y filtros por tipo de cocina, barrio y precio.',
    site: 'https://dining-tracker.example.com',
    github: '',
    description:
      'Las visitas se guardan en DynamoDB detrás de una API GraphQL que se ejecuta en AWS Lambda, lo que mantiene el gasto de alojamiento cerca de cero para una aplicación personal. La interfaz en React funciona sin conexión y se sincroniza cuando vuelve la conexión, algo importante en los restaurantes situados en sótanos. El código fuente es propiedad del cliente, así que el repositorio es privado, pero la aplicación está disponible en línea.',
  },
  {
    id: 5,
    url: '/videos/food-truck.mp4',
    webm: '/videos/food-truck.webm',
    poster: '/videos/food-truck.webp',
    title: 'Sitio promocional para un camión de comida',
    tech: 'React, TypeScript, Google Maps Embed, Netlify Forms',
    problem:
      'Un camión de comida cambiaba de ubicación cada día y perdía clientes que no conseguían encontrarlo. El calendario publicado en las redes sociales pasaba fácilmente desapercibido.',
    solution:
      'Un sitio promocional de colores vivos con el calendario semanal, un panel en tiempo real de “dónde estamos hoy”, el menú actual y un formulario para solicitar servicio de catering.',
    site: 'https://food-truck.example.com',
    github: 'https://github.com/alex-example/food-truck-site',
    description:
      'Los dueños actualizan el calendario y el menú desde un pequeño archivo de contenido, y el sitio se regenera en segundos. La página de inicio destaca la ubicación del día con el horario de apertura e indicaciones para llegar, y el formulario de catering atrajo varios eventos privados en su primer mes. Todo el sitio pesa menos de 150 KB en la primera carga.',
  },
];
