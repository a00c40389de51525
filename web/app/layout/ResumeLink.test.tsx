import { render, screen } from '../../test/render';
import { describe, expect, it } from 'vitest';
import { ResumeLink } from './ResumeLink';

describe('ResumeLink', () => {
  it('links to the résumé PDF when the owner supplies one', () => {
    render(<ResumeLink href="/resume.pdf" />);
    const link = screen.getByRole('link', { name: /Résumé/ });
    expect(link).toHaveAttribute('href', '/resume.pdf');
    expect(link).toHaveAttribute('type', 'application/pdf');
  });

  it('renders nothing when there is no résumé', () => {
    const { container } = render(<ResumeLink href={undefined} />);
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
