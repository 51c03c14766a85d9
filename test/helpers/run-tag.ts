/** Set in the environment of every process a test starts, to the test run's id. */
export const CHILD_TAG = 'PROPDATA_TEST_CHILD_OF_RUN';
