// The server's bundle is also what its worker threads run (see SimulationWorkers): a worker runs its job, and the
// language server starts only in the main thread, loaded on demand so that a worker never opens its connection.
import { isSimulationWorker, serveSimulations } from './language/simulation-worker';

if (isSimulationWorker()) serveSimulations();
else require('./server');
