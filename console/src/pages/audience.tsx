/** The Audience page: its views live in pages/audience/. */
export { Audience } from './audience/audience';
