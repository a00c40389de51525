import { describe, expect, it } from 'vitest';
import { checkPageEvents, GA4_EVENT_NAME_MAX, isValidGa4EventName, PAGE_EVENTS, pageEventProblems, projectPageEvent } from './page-events';

// Projects of the test's own: the owner's may hold anything (web/content/content.test.ts checks theirs).
const projects = [
  { id: 1, title: 'Hotel Booking Manager' },
  { id: 2, title: 'Café & Co. — "Menus"!' },
  { id: 3, title: '3D Printer Shop' },
  { id: 4, title: 'Google Maps Clone' },
];

describe('a project page event name, by GA4 event naming rules', () => {
  it('is the English title with spaces and other characters as "_"', () => {
    expect(projectPageEvent('Hotel Booking Manager')).toBe('Hotel_Booking_Manager');
    expect(projectPageEvent('Café & Co. — "Menus"!')).toBe('Cafe_Co_Menus');
  });

  it('starts with a letter', () => {
    expect(projectPageEvent('3D Printer Shop')).toBe('project_3D_Printer_Shop');
    expect(projectPageEvent('  ...Quiet start')).toBe('Quiet_start');
    expect(projectPageEvent('日本語')).toBe('project');
  });

  it('keeps to 40 characters, without a trailing "_"', () => {
    const name = projectPageEvent('A Very Long Project Title That Goes On And On Forever');
    expect(name).toBe('A_Very_Long_Project_Title_That_Goes_On_A');
    expect(name).toHaveLength(GA4_EVENT_NAME_MAX);
    expect(projectPageEvent('Restaurant Reservation Management Syste m')).toBe('Restaurant_Reservation_Management_Syste');
  });

  it('steers clear of reserved names and prefixes', () => {
    expect(projectPageEvent('Scroll')).toBe('project_Scroll');
    expect(projectPageEvent('Google Maps Clone')).toBe('project_Google_Maps_Clone');
    // Compared without case, to be safe: GA4 names are case-sensitive, its reserved list is lower-case.
    expect(projectPageEvent('GA Dashboard')).toBe('project_GA_Dashboard');
    expect(projectPageEvent('Gallery App')).toBe('Gallery_App');
    for (const bad of ['page_view', 'Page_View', 'firebase_x', 'query_id_1', '1abc', 'a b', 'a-b', 'x'.repeat(41), '']) {
      expect(isValidGa4EventName(bad), bad).toBe(false);
    }
  });

  it('is valid for every fixed page event and every project given, each its own', () => {
    for (const name of Object.values(PAGE_EVENTS)) expect(isValidGa4EventName(name), name).toBe(true);
    const names = projects.map((p) => projectPageEvent(p.title));
    for (const name of names) expect(isValidGa4EventName(name), name).toBe(true);
    expect(new Set([...names, ...Object.values(PAGE_EVENTS)]).size).toBe(names.length + Object.keys(PAGE_EVENTS).length);
    expect(pageEventProblems(projects)).toEqual([]);
  });
});

describe('the build-time check of page event names', () => {
  it('fails on two titles that give the same name, naming both projects', () => {
    const clashing = [
      { id: 1, title: 'Hotel Booking Manager' },
      { id: 2, title: 'Hotel-Booking Manager!' },
      { id: 3, title: 'Photography Portfolio' },
    ];
    expect(pageEventProblems(clashing)).toEqual([
      'project 2 ("Hotel-Booking Manager!") and project 1 ("Hotel Booking Manager") share the GA4 event name "Hotel_Booking_Manager"; change one title',
    ]);
    expect(() => checkPageEvents(clashing)).toThrow(/share the GA4 event name "Hotel_Booking_Manager"/);
  });

  it('fails on titles equal in their first 40 characters, and on a fixed page name', () => {
    const problems = pageEventProblems([
      { id: 1, title: 'Restaurant Reservation Management System A' },
      { id: 2, title: 'Restaurant Reservation Management System B' },
      { id: 3, title: 'home page' },
      { id: 4, title: 'homePage' },
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^project 2 .* and project 1 .* "Restaurant_Reservation_Management_System"/);
    expect(problems[1]).toMatch(/^project 4 \("homePage"\) and the fixed page event "homePage"/);
  });

  it('fails on a title too long for the project_title parameter', () => {
    expect(pageEventProblems([{ id: 7, title: `Shop ${'x'.repeat(100)}` }])).toEqual([
      'project 7 ("Shop ' + 'x'.repeat(100) + '"): the title has 105 characters; GA4 drops a project_title over 100',
    ]);
  });

  it('passes projects whose names are valid and their own', () => {
    expect(() => checkPageEvents(projects)).not.toThrow();
  });
});
