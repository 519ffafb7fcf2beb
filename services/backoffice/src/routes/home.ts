import express, { type Router } from 'express';
import { currentStaff } from '../http/locals.js';
import { homeView } from '../views/home.js';
import { renderPage } from '../views/render.js';

/** `/`: any logged-in staff member (app.ts puts requireLogin in front of every area). */
export function homeRouter(): Router {
  const router = express.Router();
  router.get('/', (req, res) => {
    renderPage(req, res, { title: 'Home', body: homeView(currentStaff(res)) });
  });
  return router;
}
