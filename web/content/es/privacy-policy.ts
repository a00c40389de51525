import type { PrivacyPolicy } from '../types';

/**
 * This folder's language: the text of ../privacy-policy.ts, the same eleven sections in the same order. The dates stay as in
 * the English file; the page formats them for the locale.
 */
export const privacyPolicy: PrivacyPolicy = {
  lastUpdated: '2024-09-27',
  revised: '2026-12-06',
  sections: [
    {
      heading: '1. Información general',
      paragraphs: [
        'Esta política explica qué información recopila este sitio web, por qué se recopila y qué opciones tienes. El sitio es un portafolio personal gestionado por su propietario, que es el responsable de la información que aquí se describe.',
        'Puedes leer todas las páginas del sitio sin facilitar ningún dato personal.',
      ],
    },
    {
      heading: '2. Información que me facilitas',
      paragraphs: [
        'Cuando envías un mensaje mediante el formulario de contacto, el sitio guarda tu nombre completo, tu dirección de correo electrónico y tu mensaje en su archivo de mensajes y se los envía al propietario por correo electrónico. Esta información se utiliza únicamente para leer y responder a tu mensaje.',
        ({ messageRetentionDays: days }) =>
          `El archivo conserva cada mensaje, junto con la hora en que llegó, el idioma de la página desde la que se envió y si se entregó, durante ${days === 1 ? '1 día' : `${days} días`}. Después se elimina automáticamente, normalmente en unos pocos días, y las copias de recuperación del archivo desaparecen como máximo 35 días más tarde. Los mensajes del archivo no llevan ninguna dirección IP ni nada del captcha; la misma base de datos guarda también los recuentos de solicitudes del formulario de contacto descritos en la sección 5.`,
        'El correo que llega al buzón del propietario se conserva mientras la conversación sea útil. Para que tu mensaje se elimine antes, del archivo y del buzón, pídelo a través de la página de contacto indicando la dirección de correo desde la que escribiste.',
      ],
    },
    {
      heading: '3. Información que se recopila automáticamente',
      paragraphs: [
        'El sitio cuenta los clics en algunos enlaces y botones, como las opciones del menú y los enlaces de los proyectos, para saber qué contenido resulta útil. El propio servidor del sitio registra estos recuentos como totales por nombre de botón: no contienen ninguna cookie, ninguna dirección IP ni nada que te identifique.',
        'El sitio también cuenta las visitas a cada página y mide lo rápido que carga y responde (las Core Web Vitals), con el código abierto web-vitals de Google servido por el propio sitio: nada de ello llega a Google. Por cada página vista, tu navegador envía al servidor del sitio solo el tipo de página (por ejemplo, «una página de proyecto», nunca su dirección), su idioma, si la pantalla es del tamaño de un teléfono o mayor, si la página se abrió directamente o desde otra página del sitio, y los tiempos medidos. No envía ninguna cookie ni ningún identificador, no guarda nada en tu navegador y no envía nada si tu navegador envía Global Privacy Control, su petición de que los sitios no vendan ni compartan tu información personal.',
        ({ logRetentionDays: days }) =>
          `Cada página vista se conserva como una línea de los registros del servidor del sitio durante ${days === 1 ? '1 día' : `${days} días`} y después se elimina, normalmente en un plazo de tres días; sus tiempos de carga y de respuesta se suman además a totales que avisan al propietario cuando el sitio va lento. Tu dirección IP nunca se guarda con ellos.`,
        'Como en la mayoría de los sitios web, el proveedor de alojamiento conserva durante poco tiempo registros técnicos de las solicitudes para proteger el servicio frente a usos abusivos.',
      ],
    },
    {
      heading: '4. Servicio de analítica',
      paragraphs: [
        'Si aceptas las cookies, el sitio carga Google Analytics 4, un servicio prestado por Google LLC, para medir qué páginas se visitan. Google Analytics utiliza cookies para distinguir unas visitas de otras y recibe información como las páginas que ves, tu ubicación aproximada, tu navegador y el tipo de dispositivo que usas.',
        'Google Analytics no se carga en absoluto hasta que aceptas. El uso que la propia Google hace de estos datos se describe en la política de privacidad de Google, disponible en policies.google.com.',
      ],
    },
    {
      heading: '5. Servicio de captcha',
      paragraphs: [
        'El formulario de contacto está protegido por Google reCAPTCHA para que el spam automatizado no llegue al buzón del propietario. reCAPTCHA solo se carga en la página de contacto. Recopila información sobre el hardware y el software, como datos del dispositivo y de la aplicación, y la envía a Google para su análisis.',
        'La verificación de reCAPTCHA es necesaria para enviar un mensaje. Google trata esta información por cuenta del propietario, como proveedor de servicios, solo para distinguir a las personas de los programas automatizados; el propietario decide para qué se usa y es responsable de ello conforme a esta política. Para limitar el abuso, el sitio cuenta además las solicitudes de contacto por dirección de red (en IPv6, por bloque de red) en la base de datos del archivo de mensajes. La dirección nunca se guarda: cada recuento se archiva bajo un seudónimo hecho a partir de la dirección con una clave aleatoria que se sustituye cada día (UTC) y se borra con él, de modo que los recuentos de días distintos no pueden relacionarse, y nada de lo que se publica sobre el sitio permite convertir un seudónimo en una dirección. Mientras existe la clave del día, el propietario aún podría comprobar si una dirección concreta envió solicitudes ese día. Cada recuento caduca al acabar su periodo (diez minutos o el día UTC); la base de datos lo elimina después, normalmente en unos pocos días, y sus copias de recuperación desaparecen como máximo 35 días más tarde.',
        'Las visitas a páginas y los clics (sección 3) se cuentan de la misma manera: por dirección de red y día UTC, bajo el mismo seudónimo diario, para que ninguna dirección pueda inundar las estadísticas del propietario; a partir de cien de cada tipo en un día, las siguientes de esa dirección no se registran. La clave del día se borra pocos minutos después de que acabe el día (UTC), de modo que desde entonces nadie puede saber de qué dirección se hizo un seudónimo. El sitio guarda además, durante dos días, cuántas solicitudes de contacto, visitas a páginas y clics recibió cada día en total, sin dirección ni seudónimo, para limitar lo que puede costar una avalancha de solicitudes.',
      ],
    },
    {
      heading: '6. Cookies y tu decisión',
      paragraphs: [
        'El propio sitio no instala ninguna cookie. En la página de contacto, Google reCAPTCHA instala una cookie, _GRECAPTCHA, que necesita para su análisis de riesgos (sección 5): es necesaria para enviar un mensaje, así que no depende de la elección que sigue. Cuando aceptas en el aviso de cookies, tu elección se guarda en el almacenamiento local de tu navegador para que el aviso no vuelva a aparecer, y el servicio de analítica descrito anteriormente puede instalar sus cookies.',
        'Si no aceptas, no se carga ninguna analítica y el sitio funciona exactamente igual. Puedes retirar tu consentimiento en cualquier momento borrando los datos de este sitio en la configuración de tu navegador.',
        'Si eliges un tema claro u oscuro con el selector de tema, esa elección también se guarda en el almacenamiento local de tu navegador para que todas las páginas se abran con él. Es una preferencia de visualización, no un seguimiento: nunca sale de tu navegador y no identifica a nadie. Elegir “Sistema” la elimina.',
      ],
    },
    {
      heading: '7. Cómo se comparte la información',
      paragraphs: [
        'Tu información nunca se vende ni se alquila. Solo se comparte con los proveedores de servicios que hacen funcionar el sitio, y únicamente en la medida en que lo necesitan:',
      ],
      list: [
        'Amazon Web Services, que aloja el sitio, guarda el archivo de mensajes y entrega por correo electrónico los mensajes de contacto;',
        'Google, para reCAPTCHA en la página de contacto y, con tu consentimiento, para la analítica;',
        'las autoridades, si la ley lo exige.',
      ],
    },
    {
      heading: '8. Seguridad',
      paragraphs: [
        'El sitio se sirve únicamente mediante conexiones HTTPS cifradas, con cabeceras de seguridad estrictas. Los mensajes de contacto se guardan cifrados en el archivo de mensajes y solo llegan al servidor de correo del propietario mediante una conexión cifrada (TLS): un mensaje que no puede entregarse así nunca se envía sin cifrar y permanece en el archivo. El acceso a la cuenta de alojamiento está protegido con autenticación multifactor.',
        'Ningún método de transmisión o almacenamiento es completamente seguro, pero se adoptan medidas razonables para proteger tu información.',
      ],
    },
    {
      heading: '9. Tus derechos',
      paragraphs: [
        'Según el lugar donde vivas, puedes tener derecho a solicitar una copia de la información que se conserva sobre ti, a que se corrija o se elimine, a oponerte a su uso o a limitarlo, y a retirar tu consentimiento. También tienes derecho a presentar una reclamación ante la autoridad de protección de datos de tu país.',
        'Para ejercer cualquiera de estos derechos, por ejemplo para que se elimine un mensaje que enviaste antes de que termine el plazo del apartado 2, envía un mensaje a través de la página de contacto.',
      ],
    },
    {
      heading: '10. Cambios en esta política',
      paragraphs: [
        'Esta política puede actualizarse cuando cambien el sitio o los servicios que utiliza; los cambios importantes se señalarán en el sitio. Las fechas que figuran al principio de esta página son la fecha original de la política y la de su última revisión. Se revisó el 6 de diciembre de 2026 (sección 5: los recuentos por dirección de las visitas a páginas y de los clics, y cuándo se borra la clave del día), el 29 de noviembre de 2026 (secciones 2 y 5: los recuentos del formulario de contacto y la cookie de reCAPTCHA), el 28 de noviembre de 2026 (secciones 3 y 5: las visitas a páginas y el servicio de captcha) y el 26 de noviembre de 2026 (sección 2: el archivo de mensajes).',
      ],
    },
    {
      heading: '11. Contacto',
      paragraphs: [
        'Si tienes alguna pregunta sobre esta política o sobre cómo se trata tu información, ponte en contacto a través de la página de contacto de este sitio web.',
      ],
    },
  ],
};
