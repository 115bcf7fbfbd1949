/**
 * The converted files show no text of their own: every word a user sees or hears comes from t().
 * A file joins the list once it is converted whole, and never leaves it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

export const CONVERTED = [
  'app/router.tsx',
  'features/auth/login-page.tsx',
  'features/auth/one-time-code-field.tsx',
  'app/shell/shell.tsx',
  'app/shell/outage-banner.tsx',
  'app/shell/offline-marking.tsx',
  'app/shell/language-dialog.tsx',
  'app/shell/account-two-factor.tsx',
  'features/dashboard/dashboard-page.tsx',
  'features/dashboard/my-classes-card.tsx',
  'features/dashboard/notifications-control.tsx',
  'features/dashboard/reminder-cards.tsx',
  'components/not-loaded.tsx',
  'components/stat-card.tsx',
  'features/auth/change-password-button.tsx',
  'features/auth/change-password-dialog.tsx',
  'features/auth/password-field.tsx',
  'features/auth/password-rules.ts',
  'features/auth/authenticator-key.tsx',
  'features/auth/recovery-codes.tsx',
  'features/auth/turn-off-two-factor.tsx',
  'features/auth/two-factor-dialog.tsx',
  'features/auth/two-factor-enrol.tsx',
  'features/auth/two-factor-on.tsx',
  'features/messages/communications-page.tsx',
  'features/messages/analytics-tab.tsx',
  'features/messages/reach-chart.tsx',
  'features/messages/templates-tab.tsx',
  'features/messages/template-dialog.tsx',
  'features/messages/call-list.tsx',
  'features/messages/conversations.tsx',
  'features/messages/message-history-table.tsx',
  'features/messages/send-message-dialog.tsx',
  'features/messages/whatsapp-message-dialog.tsx',
  'features/messages/messaging-settings-dialog.tsx',
  'features/imports/import-page.tsx',
  'features/imports/import-card.tsx',
  'features/imports/import-result.tsx',
  'features/imports/import-files.ts',
  'features/attendance/mark-attendance-page.tsx',
  'features/attendance/roster-form.tsx',
  'features/attendance/roster-row.tsx',
  'features/attendance/roster-bar.tsx',
  'features/attendance/remarks-and-reason.tsx',
  'features/attendance/queued-marks-panel.tsx',
  'features/attendance/pending-class-panel.tsx',
  'features/attendance/pending-days.tsx',
  'features/attendance/approval-page.tsx',
  'features/attendance/marking-rules-dialog.tsx',
  'features/attendance/history-page.tsx',
  'features/attendance/record-filter-fields.tsx',
  'features/attendance/attendance-status.tsx',
  'features/attendance/history-rows.ts',
  'features/attendance/record-filters.ts',
  'components/date-field.tsx',
  'features/leave/leave-page.tsx',
  'features/teacher-attendance/teacher-attendance-page.tsx',
  'features/teacher-attendance/remarks-dialog.tsx',
  'features/teacher-attendance/attendance-marks.ts',
  'features/audit/audit-page.tsx',
  'features/audit/audit-change.tsx',
  'features/audit/audit-labels.ts',
  'features/activities/activity-bell.tsx',
  'features/settings/absence-alerts-switch.tsx',
  'features/settings/admin-two-factor-switch.tsx',
  'features/settings/audit-retention-setting.tsx',
  'features/settings/marking-reminders-setting.tsx',
  'features/settings/phone-country-code-setting.tsx',
  'app/page-boundary.tsx',
  'app/routes/audit.tsx',
  'app/routes/approval.tsx',
  'components/page-header.tsx',
  'components/page-spinner.tsx',
  'components/dialog-spinner.tsx',
  'lib/error-boundary.tsx',
  'lib/toast.tsx',
  'features/students/students-page.tsx',
  'features/students/students-list.tsx',
  'features/students/student-dialog.tsx',
  'features/students/leave-dialog.tsx',
  'features/students/leaving-actions.tsx',
  'features/students/scrub-setting.tsx',
  'features/students/student-form.ts',
  'features/students/student-search.ts',
  'features/students/api.ts',
  'features/teachers/teachers-page.tsx',
  'features/teachers/teachers-list.tsx',
  'features/teachers/teacher-dialog.tsx',
  'features/teachers/initial-password-dialog.tsx',
  'features/teachers/multi-select-field.tsx',
  'features/teachers/email-address.tsx',
  'features/teachers/reset-two-factor-action.tsx',
  'features/teachers/teacher-form.ts',
  'features/teachers/api.ts',
  'features/parents/parent-access-dialog.tsx',
  'features/parents/api.ts',
  'components/entity-list/entity-list.tsx',
  'components/entity-list/entity-table.tsx',
  'components/entity-list/entity-form-dialog.tsx',
  'components/entity-list/entity-texts.ts',
  'components/entity-list/list-states.tsx',
  'components/entity-list/name-cell.tsx',
  'components/entity-list/paging.tsx',
  'components/entity-list/row-actions.tsx',
  'components/entity-list/search-box.tsx',
  'components/entity-list/selection-toolbar.tsx',
  'components/entity-list/use-editor.ts',
  'components/entity-list/list-mutation.ts',
  'components/entity-list/index.ts',
  'components/row-cards.tsx',
  'components/data-table.tsx',
  'components/pager.tsx',
  'components/search-field.tsx',
  'components/empty-state.tsx',
  'lib/phone-settings.ts',
  'app/routes/students.tsx',
  'app/routes/teachers.tsx',
  'parent/app.tsx',
  'parent/sign-in.tsx',
  'parent/inbox.tsx',
  'parent/inbox-notes.tsx',
  'parent/inbox-state.ts',
  'parent/use-inbox.ts',
  'parent/children.tsx',
  'parent/leave.tsx',
  'parent/settings.tsx',
  'parent/fragment.ts',
  'parent/i18n.ts',
];

/** Properties whose value a user reads or a screen reader says. */
const VISIBLE_PROPS = new Set([
  'label',
  'aria-label',
  'title',
  'placeholder',
  'helperText',
  'subtitle',
  'caption',
  'text',
  'alt',
  'primary',
  'secondary',
]);

/** Words: two letters of any script in a row (a lone '·', '%', '—' or '999+' is not text). */
const WORDS = /\p{L}{2}/u;

/**
 * A sentence or a label outside JSX: two words in a row, or a capitalised word (`'Saved'`,
 * `'Could not save'`), as toasts, errors set in handlers and texts handed to components are written.
 * Values (`'present'`, `'outlined'`, `'1px solid'`, `'application/json'`) are neither.
 */
const SENTENCE = /(^|[\s(])\p{L}{2,}[\s,]+\p{L}{2,}|^\p{Lu}\p{Ll}+\b(?![-/.])/u;

/** The calls whose string arguments are keys, not texts: `t('key')`, `i18n.t(…)`, `addEnglish('ns', …)`. */
const KEY_CALLS = /^(t|i18n\.t|englishText|addEnglish|useTranslation|require)$/;

/**
 * Texts for developers, never shown: console messages, and the errors code throws (a page shows only
 * the server's errors, through errorText, and its boundary's own texts for anything else).
 */
const isDeveloperText = (node: ts.Node): boolean =>
  (ts.isCallExpression(node) && /^console\.\w+$/.test(node.expression.getText())) ||
  (ts.isNewExpression(node) && node.expression.getText() === 'Error');

/** Strings outside JSX that read as text: not keys, module names, types, object keys or compared values. */
function sentencesOutsideJsx(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node, inJsx: boolean): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
    if (ts.isCallExpression(node) && KEY_CALLS.test(node.expression.getText())) return;
    if (isDeveloperText(node)) return;
    if (
      ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(
        node.operatorToken.kind,
      )
    )
      return;
    if (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node)) inJsx = true;
    if (
      !inJsx &&
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) &&
      !(ts.isPropertyAssignment(node.parent) && node.parent.name === node) &&
      !ts.isLiteralTypeNode(node.parent) &&
      !(ts.isElementAccessExpression(node.parent) && node.parent.argumentExpression === node)
    ) {
      const text = ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ')
        : node.text;
      if (SENTENCE.test(text)) found.push(text);
      return;
    }
    ts.forEachChild(node, (child) => visit(child, inJsx));
  };
  visit(source, false);
  return found;
}

/** Texts the rule lets through: each language's own name in the language menu is the same in every language. */
function literalTexts(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  return [...sentencesOutsideJsx(source), ...jsxTexts(source)];
}

/** Texts in JSX: its text, texts in its expressions, and the props a user reads or hears. */
function jsxTexts(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const stringsIn = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (WORDS.test(node.text)) found.push(node.text);
    } else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
      if (WORDS.test(parts)) found.push(node.getText());
    } else if (
      // t('key') and other calls: their arguments are keys and options, not text. Elements inside are
      // walked on their own; a comparison's strings are values, never shown.
      ts.isCallExpression(node) ||
      ts.isJsxElement(node) ||
      ts.isJsxSelfClosingElement(node) ||
      ts.isJsxFragment(node) ||
      (ts.isBinaryExpression(node) &&
        [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(
          node.operatorToken.kind,
        ))
    ) {
      return;
    } else {
      ts.forEachChild(node, stringsIn);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && WORDS.test(node.text)) found.push(node.text.trim());
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) stringsIn(node.expression);
    if (ts.isJsxAttribute(node) && VISIBLE_PROPS.has(node.name.getText()) && node.initializer)
      stringsIn(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('converted files', () => {
  for (const file of CONVERTED) {
    it(`${file} shows no text outside t()`, () => {
      expect(literalTexts(resolve(import.meta.dirname, '..', file))).toEqual([]);
    });
  }

  it('finds the texts the rule is about, in JSX and outside it', () => {
    const source = (code: string) =>
      ts.createSourceFile('probe.tsx', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    expect(
      jsxTexts(
        source(
          `const a = <Dialog><DialogTitle>Change Password</DialogTitle><TextField label="New Password" helperText={'Too short'} /><Button>{pending ? 'Changing...' : t('x')}</Button></Dialog>;`,
        ),
      ),
    ).toEqual(['Change Password', 'New Password', 'Too short', 'Changing...']);
    expect(
      sentencesOutsideJsx(
        source(`const a = () => showToast('Student saved', 'success'); setError('Could not load'); const b = 'Saved';`),
      ),
    ).toEqual(['Student saved', 'Could not load', 'Saved']);
    expect(
      sentencesOutsideJsx(
        source(
          "import x from 'Some Module'; const a = t('students.saved'); if (s === 'Not marked') {}; const c = { 'Content Type': 1 }; const d = { border: '1px solid', variant: 'outlined', type: 'application/json' };",
        ),
      ),
    ).toEqual([]);
  });

  it('lets developer texts through: console messages and thrown errors', () => {
    const source = ts.createSourceFile(
      'probe.tsx',
      "console.error('The page failed', error); throw new Error('useToast must be used within a ToastProvider');",
      ts.ScriptTarget.Latest,
      true,
      ts.ScriptKind.TSX,
    );
    expect(sentencesOutsideJsx(source)).toEqual([]);
  });
});
