/**
 * Reading the end of a job's driver log: {@link dev.kubejobs.core.logs.DriverLogReader}, best
 * effort and never failing the caller.
 */
package dev.kubejobs.core.logs;
