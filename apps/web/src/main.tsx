// The first page a stranger sees is the sign-in form (apps/web/README.md "First page"): this entry carries only what it
// needs. The signed-in app (its router, shell and pages: app/router.tsx) and the notices' host are their own chunks.
// Only what the first pages (sign-in, the loaders) need is in the main stylesheet; every other
// page loads Mantine's whole stylesheet with its chunk (app/full-styles.ts), so the sign-in page
// does not wait for 250 KB of CSS on a slow network.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Checkbox.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

const root = createRoot(document.getElementById('root')!);
// The first render as a transition: React renders it in slices and lets the browser in between, instead of one long
// task while the page is still busy loading (Lighthouse's Total Blocking Time; apps/web/README.md "First page").
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
