/** This folder's language: the text of ../fun-facts.ts, the same five facts, in the same order. */
export const funFacts: readonly string[] = [
  'Escribí mi primera página web con un editor de texto en una computadora de la escuela, y tenía muchísimo texto parpadeante.',
  'He visitado más de veinte parques nacionales y siempre llevo un mapa de papel, por si acaso.',
  'Mi masa madre es más antigua que la mayoría de mis repositorios y mucho más exigente.',
  'Puedo resolver un cubo de Rubik en menos de dos minutos, pero solo antes de mi primer café.',
  'Antes de ser desarrollador trabajé como barista, y eso me enseñó todo lo que sé sobre colas.',
];
