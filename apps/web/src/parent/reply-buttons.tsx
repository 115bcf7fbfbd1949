import type { ReactNode } from 'react';

/** One choice under a message: what it sends, and its words in the language shown. */
export interface ReplyChoice<Key extends string> {
  key: Key;
  label: string;
  /** It opens a field (and Send) rather than sending at once. */
  opens?: boolean;
}

/**
 * The quick replies under a message (an absence alert's reasons, a fee reminder's answers): a titled
 * row of buttons, the one being sent saying so, a choice that opens a field marked expanded, and what
 * went wrong beneath. `children` is what a choice opened (a field and Send).
 */
export function ReplyButtons<Key extends string>({
  id,
  title,
  choices,
  sending,
  sendingLabel,
  chosen,
  error,
  onChoose,
  children,
}: {
  id: string;
  title: string;
  choices: readonly ReplyChoice<Key>[];
  sending: Key | undefined;
  sendingLabel: string;
  chosen?: Key | undefined;
  error: string | undefined;
  onChoose: (key: Key) => void;
  children?: ReactNode;
}) {
  return (
    <section className="replies" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="reply-buttons">
        {choices.map((choice) => (
          <button
            key={choice.key}
            type="button"
            className="secondary"
            disabled={sending !== undefined}
            aria-expanded={choice.opens ? chosen === choice.key : undefined}
            onClick={() => onChoose(choice.key)}
          >
            {sending === choice.key ? sendingLabel : choice.label}
          </button>
        ))}
      </div>
      {children}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
