/**
 * Fake Spark operators for the fake Kubernetes API server: {@link
 * dev.kubejobs.testkit.operator.FakeSparkOperator} drives SparkApplications along scripted {@link
 * dev.kubejobs.testkit.operator.SparkAppPath paths}, step by step or on a timer.
 */
package dev.kubejobs.testkit.operator;
