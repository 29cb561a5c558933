// The death notice of the processes of an MPI job. mpiexec does not say which rank died:
// MPICH's hydra reports a pid (not always the dead one's) and "KILLED BY SIGNAL: 9"; so a rank
// that is killed, crashes or exits without remora_finalize would leave the user guessing.
// Each process connects at remora_init to a small notice server, one per launcher process and
// host (forked by the first process to get there, in a process group of its own, so that the
// launcher's teardown does not kill it). When a connection closes without a goodbye
// (remora_finalize, or the process's own message before it ends the job), the server prints
// "remora: rank <r> (pid <p>) died without remora_finalize or remora_abort: killed by signal
// <n> (<name>); the job cannot go on" to stderr for the first such death (a crash before a
// kill), in the order the connections closed, then one line for each other death seen within
// half a second ("also died, seen <t> ms after the first": the launcher killing the others, or
// a victim seen late). It exits when every connection has closed.
#pragma once

namespace remora::mpi {

// Connects this process to its notice server, starting the server if none runs. Called before
// MPI_Init when Remora initialises MPI (before_mpi_init): the connection then gets a lower
// descriptor than MPI's connections, even than the PMI connection of MPICH's hydra (which
// moves above it), so that, as the kernel closes a dying process's descriptors in increasing
// order, its death is seen before the launcher reacts to it. Best effort: without a server
// nothing is reported. Once per process.
void start_death_notice(bool before_mpi_init);

// Names this process in the report ("rank 3"), once it is known.
void name_death_notice(const char* who);

// This process ends on purpose now (finalized, or it has printed why it ends the job): its
// connection closes with a goodbye, without a report.
void stop_death_notice();

}  // namespace remora::mpi
