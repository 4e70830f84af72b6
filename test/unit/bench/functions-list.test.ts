import { deployedFunctions } from '../../../bench/functions';
import { DRIVEN_FUNCTIONS, INIT_ONLY_FUNCTIONS } from '../../../bench/handler-cpu';
import { bucketFunctions, endpointGroups, schedules, workers } from '../../../shared/platform/core/routes';

const routeTable = [endpointGroups, workers, schedules, bucketFunctions].flatMap((table) => Object.entries(table).map(([name, def]) => ({ name, entry: def.entry })));

describe('the functions benchmark (bench/functions.ts)', () => {
  it('measures exactly the functions of the route table, each with its entry', () => {
    expect(deployedFunctions().sort((a, b) => a.name.localeCompare(b.name))).toEqual(routeTable.sort((a, b) => a.name.localeCompare(b.name)));
  });

  it('gives every function a handler-CPU event, or says why it measures bundle and init only', () => {
    const names = routeTable.map((f) => f.name).sort();
    expect([...DRIVEN_FUNCTIONS, ...Object.keys(INIT_ONLY_FUNCTIONS)].sort()).toEqual(names);
    for (const note of Object.values(INIT_ONLY_FUNCTIONS)) expect(note.length).toBeGreaterThan(10);
  });
});
