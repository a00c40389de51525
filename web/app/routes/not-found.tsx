export default function NotFound() { return <main><h1>Oops! Page not found.</h1></main>; }
