import { hydrate, render } from 'preact';
import { App } from './App.tsx';
import { preloadedOfPage, setPreloaded } from './preloaded.ts';
import './styles.css';

// In the browser: over a page the server rendered (its content in #app), the app takes over that
// HTML (hydration) starting from the API answers the server used; over the shell it renders.
const root = document.getElementById('app')!;
if (root.firstElementChild) {
  setPreloaded(preloadedOfPage(), true);
  hydrate(<App />, root);
} else {
  render(<App />, root);
}
