import { createContext, useContext, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { bundleFromMatches, useLocale } from '../app/i18n/locale-context';
import { english, englishMatches, inEnglish, render, renderHook, screen } from './render';

const Room = createContext('none');
function Probe() {
  return <p>{`${useLocale()} in ${useContext(Room)}`}</p>;
}
const Kitchen = ({ children }: { children: ReactNode }) => <Room.Provider value="kitchen">{children}</Room.Provider>;

describe("the web tests' render: in the default language, as under its layout", () => {
  it("renders in English, with a test's own wrapper inside the language", () => {
    render(<Probe />, { wrapper: Kitchen });
    expect(screen.getByText('en in kitchen')).toBeInTheDocument();
    expect(renderHook(() => useLocale()).result.current).toBe('en');
    expect(renderToString(inEnglish(<Probe />))).toContain('en in none');
  });

  it('gives meta the matches of the English layout', () => {
    expect(bundleFromMatches(englishMatches)).toBe(english);
  });

  it('leaves a component or a meta without a language to throw, as on the site', () => {
    expect(() => renderToString(<Probe />)).toThrow(/No language: render this under a language layout route/);
    expect(() => bundleFromMatches(undefined)).toThrow(/No language for this page/);
    expect(() => bundleFromMatches([{ handle: {} }])).toThrow(/No language for this page/);
  });
});
