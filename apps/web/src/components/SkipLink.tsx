import type { MouseEvent } from 'react';
import classes from './SkipLink.module.css';

/** The id of the element the skip link moves to: the page's `<main>` (with `tabIndex={-1}`). */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to content" (WCAG 2.4.1 Bypass Blocks): the first focusable element of a screen, hidden
 * until the keyboard reaches it; it moves focus past the header and navigation to the page itself
 * without changing the URL.
 */
export function SkipLink({ target = MAIN_CONTENT_ID }: { target?: string }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(target);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView();
  };
  return (
    <a className={classes.link} href={`#${target}`} onClick={skip}>
      Skip to content
    </a>
  );
}
