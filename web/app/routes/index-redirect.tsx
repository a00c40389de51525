import { redirect } from 'react-router';

// Spec §2: "/" replaces itself with /home. A clientLoader redirect replaces the history entry.
// (The CDN already answers "/" with a 302; this covers in-app links to "/".)
export function clientLoader() {
  return redirect('/home');
}

export default function IndexRedirect() {
  return null;
}
