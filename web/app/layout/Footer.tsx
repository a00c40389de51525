import { Link } from 'react-router';
import { CurrentYear } from '../components/CurrentYear';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';

export function Footer() {
  const { site, ui } = useCatalogue();
  const localize = useLocalizePath();
  return (
    <footer className="site-footer">
      <p>
        © <CurrentYear /> <bdi>{site.name}</bdi>. {ui.rightsReserved}
      </p>
      <p>
        <Link to={localize('/privacy-policy')}>{ui.privacyPolicyLink}</Link>
      </p>
    </footer>
  );
}
