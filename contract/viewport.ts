/**
 * Phone or desktop, by the viewport's width: below 64rem (1024 CSS px at the default font size) the
 * site shows its phone layout (menu button, no side panel), at or above it the desktop one. The page's
 * boot script and the page-view code ask matchMedia(PHONE_MEDIA_QUERY), the stylesheet's own breakpoint.
 */
export const PHONE_MEDIA_QUERY = '(max-width: 63.99rem)';
