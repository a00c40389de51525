/** Five fixed sentences; the headshot modal picks one at random each time it opens. */
export const funFacts: readonly string[] = [
  'I wrote my first web page in a text editor on a school computer, and it had a lot of blinking text.',
  'I have visited more than twenty national parks and always pack a paper map, just in case.',
  'My sourdough starter is older than most of my repositories and far more demanding.',
  'I can solve a Rubik’s cube in under two minutes, but only before my first coffee.',
  'Before becoming a developer I worked as a barista, which taught me everything I know about queues.',
];
