import { knownClassLabel } from '../lib/class-labels-known';

/** The language's word for a class of the spec's kind ("कक्षा 7"); set by `./index` once i18n is made. */
let classWord: (language: string, name: string) => string = (_, name) => `Class ${name}`;

export function setClassWord(word: (language: string, name: string) => string): void {
  classWord = word;
}

/**
 * How a text in `language` names a class by its value (ADR 054): a class of the spec's kind with the
 * language's class word ("कक्षा 7"), one the centre labelled itself as written ("Morning batch",
 * "Class 11 – A"), never "Class Morning batch" (as `classInWords` does in a component).
 */
export function classNamer(language: string): (value: string) => string {
  return (value) => {
    const label = knownClassLabel(value);
    return label === `Class ${value}` ? classWord(language, value) : label;
  };
}

/**
 * Whether a class is of the spec's kind (its label "Class 7"): a list of such classes is written as
 * stored ("(7, 8)"); a list with one of the centre's own names each of them (ADR 054).
 */
export function classIsPlain(value: string): boolean {
  return knownClassLabel(value) === `Class ${value}`;
}
