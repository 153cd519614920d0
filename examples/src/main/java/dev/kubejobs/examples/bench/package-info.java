/** JMH benchmarks of kubejobs; each one's Javadoc gives its scenario and the command to run it. */
package dev.kubejobs.examples.bench;
