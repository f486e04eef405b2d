import { Children, type ReactNode } from 'react';

/**
 * Tags side by side (a state and "next step", the events of an endpoint): a gap between them to the eye and
 * a space between their texts, so that neither the page's text nor a screen reader runs them together
 * ("Not doneNext step").
 */
export function TagRow({ children }: { children: ReactNode }) {
  const tags = Children.toArray(children);
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }}>
      {tags.flatMap((tag, i) => (i === 0 ? [tag] : [' ', tag]))}
    </span>
  );
}
