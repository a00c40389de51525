import { render, screen } from '../../test/render';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ui } from '../../content/ui';
import { ui as spanish } from '../../content/es/ui';
import { Greeting, greetingFor } from './Greeting';

describe('greetingFor', () => {
  it.each([
    [0, 'Good Morning'],
    [11, 'Good Morning'],
    [12, 'Good Afternoon'],
    [17, 'Good Afternoon'],
    [18, 'Good Evening'],
    [23, 'Good Evening'],
  ])('hour %i → %s', (hour, expected) => {
    expect(greetingFor(hour, ui.greeting)).toBe(expected);
  });

  it("greets in the page's language by the same hours", () => {
    expect([9, 13, 20].map((hour) => greetingFor(hour, spanish.greeting))).toEqual(['Buenos días', 'Buenas tardes', 'Buenas noches']);
  });

  it.each([-1, 24, 11.5, Number.NaN])('rejects the impossible hour %s', (hour) => {
    expect(() => greetingFor(hour, ui.greeting)).toThrow(RangeError);
  });
});

describe('<Greeting />', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Local wall-clock times: the thresholds are the visitor's local hours 12 and 18.
  it.each([
    [11, 59, 'Good Morning'],
    [12, 0, 'Good Afternoon'],
    [17, 59, 'Good Afternoon'],
    [18, 0, 'Good Evening'],
  ])('at %i:%i shows %s', (hour, minute, expected) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2024, 8, 27, hour, minute, 59));
    render(<Greeting />);
    expect(screen.getByTestId('greeting')).toHaveTextContent(expected);
  });
});
