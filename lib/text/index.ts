// Rules for text people type: names that are printable and of a sane length.
// What other folders use of lib/text: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { isPrintable, UNPRINTABLE_MESSAGE, printableName, UNPRINTABLE_RE } from './printable';
