/**
 * Mantine's whole stylesheet, loaded with every page chunk but the sign-in page (router.tsx
 * `page()`); main.tsx carries only what the first pages need.
 */
import '@mantine/core/styles.css';
