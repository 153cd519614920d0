/**
 * Deleting what kubejobs left behind: {@link dev.kubejobs.core.sweep.OrphanSweeper} removes the job
 * resources of this deployment whose job the caller no longer knows.
 */
package dev.kubejobs.core.sweep;
