import type { CentreClass } from '@tuitiondesk/contract';
import { classLabelFallback } from '@tuitiondesk/contract/class-params';

/**
 * The centre's class labels by value, as the console last read them (`GET /classes`): what a text
 * filled outside a component (an error's or an activity's params, ADR 054) names a class by. Until
 * they are read, a class of the spec's kind ("7", "11") is "Class 7" and any other is its value.
 */
const known = new Map<string, string>();

export function rememberClassLabels(classes: readonly CentreClass[]): void {
  known.clear();
  for (const item of classes) known.set(item.value, item.display_label);
}

export function knownClassLabel(value: string): string {
  return known.get(value) ?? classLabelFallback(value);
}
