import { Link } from 'react-router';
import { site } from '../../content/site';
import { CurrentYear } from '../components/CurrentYear';

export function Footer() {
  return (
    <footer className="site-footer">
      <p>
        © <CurrentYear /> {site.name}. All rights reserved.
      </p>
      <p>
        <Link to="/privacy-policy">Privacy policy</Link>
      </p>
    </footer>
  );
}
