/** The fax feature (docs/fax.md "Web"): the /fax screen. */
export { FaxPage } from './components/FaxPage';
