export function meta() { return [{ title: 'Home' }]; }
export default function Home() { return <main><h1>Home</h1></main>; }
