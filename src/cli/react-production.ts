/**
 * Imported first by the executable, before Ink: React picks its build from NODE_ENV when it is
 * first loaded, and its development build records a performance entry for every render and
 * never clears them, so a long chat session would grow without bound. Users run the production build.
 */
process.env.NODE_ENV = 'production';

export {};
