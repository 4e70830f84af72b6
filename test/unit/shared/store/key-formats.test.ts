import * as keys from '../../../../shared/platform/store/keys';
import golden from './key-formats.golden.json';
import { keyCases } from './key-cases';

// The golden file was written from keys.ts before the aggregate definitions generated it: a key
// format that changes would leave every stored item of that kind unreadable.
describe('the stored key formats', () => {
  test.each(Object.keys(keyCases))('%s produces the same strings as before', (name) => {
    expect(JSON.parse(JSON.stringify(keyCases[name]()))).toEqual((golden as Record<string, unknown>)[name]);
  });

  test('every value keys.ts exports has a recorded case (a new key format gets one)', () => {
    expect(Object.keys(keys).sort()).toEqual(Object.keys(keyCases).sort());
  });
});
