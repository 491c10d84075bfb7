/** Call intelligence web feature: transcript search page, "Ask about this call" panel (docs/call-intelligence.md). */
export { CallSearchPage } from './components/CallSearchPage';
export { AskAboutCall } from './components/AskAboutCall';
