import { spawnSync } from 'node:child_process';
import { assertJava, JAVA_MISSING } from '../../../local/emulators/dynamodb';

jest.mock('node:child_process', () => ({ ...jest.requireActual('node:child_process'), spawnSync: jest.fn() }));
const probe = spawnSync as unknown as jest.Mock;

describe('npm start without Java', () => {
  test('fails at once with instructions when java is not installed', () => {
    probe.mockReturnValue({ error: Object.assign(new Error('spawnSync java ENOENT'), { code: 'ENOENT' }), status: null, stdout: '', stderr: '' });
    expect(() => assertJava()).toThrow(JAVA_MISSING);
    expect(JAVA_MISSING).toContain('apt-get install -y default-jre-headless');
  });

  test('fails when java is older than 17', () => {
    probe.mockReturnValue({ status: 0, stdout: '', stderr: 'openjdk version "11.0.2" 2019-01-15' });
    expect(() => assertJava()).toThrow(/found Java 11/);
  });

  test('reads the old 1.8 version scheme as Java 8', () => {
    probe.mockReturnValue({ status: 0, stdout: '', stderr: 'java version "1.8.0_292"' });
    expect(() => assertJava()).toThrow(/found Java 8/);
  });

  test.each(['openjdk version "17.0.15" 2025-04-15', 'openjdk version "21" 2023-09-19'])('accepts %s', (stderr) => {
    probe.mockReturnValue({ status: 0, stdout: '', stderr });
    expect(() => assertJava()).not.toThrow();
  });
});
