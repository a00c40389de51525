import type { PrivacyPolicy } from './types';

/** The /privacy-policy page: eleven sections, each rendered as a <section> with an <h2>. */
export const privacyPolicy: PrivacyPolicy = {
  lastUpdated: '2024-09-27',
  revised: '2026-12-06',
  sections: [
    {
      heading: '1. Overview',
      paragraphs: [
        'This policy explains what information this website collects, why it is collected and what choices you have. The site is a personal portfolio run by its owner, who is responsible for the information described here.',
        'You can read every page of the site without giving any personal information.',
      ],
    },
    {
      heading: '2. Information you give me',
      paragraphs: [
        'When you send a message through the contact form, the site keeps your full name, your email address and your message in its message archive and sends them to the owner by email. This information is used only to read and answer your message.',
        // messageRetentionDays is the deploy's setting (cdk.json, 365 by default), filled in when the page is built.
        // DynamoDB deletes an expired item "within a few days" (DynamoDB Developer Guide, "Time to Live (TTL)",
        // https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TTL.html).
        ({ messageRetentionDays: days }) =>
          `The archive keeps each message, with the time it arrived, the language of the page it was sent from and whether it was delivered, for ${days === 1 ? '1 day' : `${days} days`}. It is then deleted automatically, usually within a few days, and the archive’s recovery copies are gone 35 days later at most. The messages in the archive carry no IP address and nothing from the captcha; the same database also holds the contact form’s request counts described in section 5.`,
        'The email in the owner’s mailbox is kept for as long as the conversation is useful. To have your message erased sooner, from the archive and from the mailbox, ask through the contact page, giving the email address you wrote from.',
      ],
    },
    {
      heading: '3. Information collected automatically',
      paragraphs: [
        'The site counts clicks on a few links and buttons, such as the menu entries and the project links, to learn which content is useful. These counts are recorded by the site’s own server as totals per button name: they contain no cookie, no IP address and nothing that identifies you.',
        'The site also counts page views and measures how fast each page loads and responds (the Core Web Vitals), with Google’s open-source web-vitals code served by this site itself: nothing about it goes to Google. For each page view your browser sends the site’s own server only the kind of page (such as “a project page”, never its address), its language, whether the screen is phone-sized or larger, whether the page was opened directly or from another page of the site, and the times measured. It sends no cookie and no identifier, stores nothing in your browser, and sends nothing at all when your browser sends Global Privacy Control, its request that sites not sell or share your personal information.',
        // Global Privacy Control is a request not to sell or share personal information (https://www.w3.org/TR/gpc/).
        // logRetentionDays is the deploy's setting (cdk.json, 30 by default), filled in when the page is built.
        // CloudWatch Logs deletes an expired event typically up to 72 hours later, rarely later (CloudWatch Logs
        // API Reference, PutRetentionPolicy: https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutRetentionPolicy.html).
        ({ logRetentionDays: days }) =>
          `Each page view is kept as one line of the site’s server logs for ${days === 1 ? '1 day' : `${days} days`} and then deleted, usually within three days; its loading and response times also go into running totals that warn the owner when the site is slow. Your IP address is never stored with them.`,
        'Like most websites, the hosting provider keeps short-lived technical logs of requests to protect the service against abuse.',
      ],
    },
    {
      heading: '4. Analytics service',
      paragraphs: [
        'If you accept cookies, the site loads Google Analytics 4, a service provided by Google LLC, to measure which pages are visited. Google Analytics uses cookies to tell visits apart and receives information such as the pages you view, your approximate location, your browser and your device type.',
        'Google Analytics is not loaded at all until you accept. Google’s own use of this data is described in Google’s privacy policy at policies.google.com.',
      ],
    },
    {
      heading: '5. Captcha service',
      paragraphs: [
        'The contact form is protected by Google reCAPTCHA to keep automated spam out of the owner’s inbox. reCAPTCHA is loaded only on the contact page. It collects hardware and software information, such as device and application data, and sends it to Google for analysis.',
        'The reCAPTCHA check is necessary to send a message. Google processes this information on the owner’s behalf, as a service provider, only to tell people from automated programs; the owner decides what it is used for and is responsible for it under this policy. To limit abuse, the site also counts contact requests per network address (for IPv6, per network block) in the message archive’s database. The address itself is never stored: each count is filed under a pseudonym made from the address with a random key that is replaced every day (UTC) and deleted with it, so counts from different days cannot be linked, and nothing published about the site can turn a pseudonym back into an address. While the day’s key exists, the owner could still check whether a given address sent requests that day. Each count expires when its period ends (ten minutes or the UTC day); the database then deletes it, usually within a few days, and its recovery copies are gone 35 days later at most.',
        'Page views and clicks (section 3) are counted the same way: per network address and UTC day, under the same daily pseudonym, so that no single address can flood the owner’s statistics; past a hundred of each in a day, an address’s further ones are not recorded. The day’s key is deleted within minutes after the day ends (UTC), so from then on no one can tell which address a pseudonym was made from. The site also keeps, for two days, how many contact requests, page views and clicks it took each day in total, with no address or pseudonym, to limit what a flood of requests can cost.',
      ],
    },
    {
      heading: '6. Cookies and your choice',
      paragraphs: [
        'The site itself sets no cookies. On the contact page, Google reCAPTCHA sets one cookie, _GRECAPTCHA, which it needs for its risk analysis (section 5): it is necessary to send a message, so it does not depend on the choice below. When you accept in the cookie banner, your choice is remembered in your browser’s local storage so the banner does not appear again, and the analytics service described above may set its cookies.',
        'If you do not accept, no analytics are loaded and the site works exactly the same. You can withdraw your consent at any time by clearing this site’s data in your browser settings.',
        'If you choose a light or dark theme with the theme control, that choice is also kept in your browser’s local storage so every page opens in it. It is a display preference, not tracking: it never leaves your browser and identifies no one. Choosing “System” removes it.',
      ],
    },
    {
      heading: '7. Sharing of information',
      paragraphs: [
        'Your information is never sold or rented. It is shared only with the service providers that make the site work, and only as far as they need it:',
      ],
      list: [
        'Amazon Web Services, which hosts the site, keeps the message archive and delivers contact messages by email;',
        'Google, for reCAPTCHA on the contact page and, with your consent, for analytics;',
        'authorities, if the law requires it.',
      ],
    },
    {
      heading: '8. Security',
      paragraphs: [
        'The site is served only over encrypted HTTPS connections, with strict security headers. Contact messages are stored encrypted in the message archive and reach the owner’s mail server only over an encrypted (TLS) connection: a message that cannot be delivered that way is never sent in clear text and stays in the archive. Access to the hosting account is protected by multi-factor authentication.',
        'No method of transmission or storage is completely secure, but reasonable measures are taken to protect your information.',
      ],
    },
    {
      heading: '9. Your rights',
      paragraphs: [
        'Depending on where you live, you may have the right to ask for a copy of the information held about you, to have it corrected or deleted, to object to or restrict its use, and to withdraw your consent. You also have the right to complain to your local data protection authority.',
        'To use any of these rights, for example to have a message you sent erased before the end of the period in section 2, send a message through the contact page.',
      ],
    },
    {
      heading: '10. Changes to this policy',
      paragraphs: [
        'This policy may be updated when the site or the services it uses change; significant changes will be highlighted on the site. The dates at the top of this page are the policy’s original date and its latest revision. It was revised on December 6, 2026 (section 5: the per-address counts of page views and clicks, and when the day’s key is deleted), November 29, 2026 (sections 2 and 5: the contact form’s counts and reCAPTCHA’s cookie), November 28, 2026 (sections 3 and 5: page views and the captcha service) and November 26, 2026 (section 2: the message archive).',
      ],
    },
    {
      heading: '11. Contact',
      paragraphs: [
        'If you have any questions about this policy or how your information is handled, please get in touch through the contact page of this website.',
      ],
    },
  ],
};
